package io.spanflight.internal.bridge;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.ArrayValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.processcontext.v1development.ProcessContext;
import io.opentelemetry.proto.resource.v1.Resource;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The OTEP-4719 mapping, found and read through /proc as an external reader would. */
class ProcessContextTest {
  private final NativeContextBridge bridge = NativeTestSupport.bridge();

  @Test
  void publishesTheProcessContextAndUpdatesIt() throws Exception {
    long before = System.nanoTime();
    assertThat(bridge.publishProcessContext(processContext("checkout").toByteArray())).isTrue();
    ByteBuffer header = readHeader();
    long publishedAt = header.getLong(16);
    assertThat(publishedAt).isBetween(before, System.nanoTime());
    ProcessContext read = readPayload(header);
    assertThat(read.getResource().getAttributes(0).getKey()).isEqualTo("service.name");
    assertThat(read.getResource().getAttributes(0).getValue().getStringValue()).isEqualTo("checkout");
    assertThat(read.getAttributesList()).isEqualTo(processContext("checkout").getAttributesList());

    assertThat(bridge.publishProcessContext(processContext("billing").toByteArray())).isTrue();
    ByteBuffer updated = readHeader();
    assertThat(updated.getLong(16)).isGreaterThan(publishedAt);
    assertThat(readPayload(updated).getResource().getAttributes(0).getValue().getStringValue())
        .isEqualTo("billing");
  }

  private static ProcessContext processContext(String serviceName) {
    ArrayValue keyMap =
        ArrayValue.newBuilder().addValues(string("http.route")).addValues(string("user.tier")).build();
    return ProcessContext.newBuilder()
        .setResource(Resource.newBuilder().addAttributes(keyValue("service.name", string(serviceName))))
        .addAttributes(keyValue("threadlocal.schema_version", string("tlsdesc_v1_dev")))
        .addAttributes(keyValue("threadlocal.attribute_key_map", array(keyMap)))
        .build();
  }

  private static AnyValue string(String value) {
    return AnyValue.newBuilder().setStringValue(value).build();
  }

  private static AnyValue array(ArrayValue values) {
    return AnyValue.newBuilder().setArrayValue(values).build();
  }

  private static KeyValue keyValue(String key, AnyValue value) {
    return KeyValue.newBuilder().setKey(key).setValue(value).build();
  }

  /** Finds the OTEL_CTX mapping in /proc/self/maps and checks its fixed header fields. */
  private static ByteBuffer readHeader() throws IOException {
    List<String> maps = Files.readAllLines(Path.of("/proc/self/maps"));
    String line =
        maps.stream()
            .filter(l -> l.contains("/memfd:OTEL_CTX") || l.contains(":OTEL_CTX]"))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no OTEL_CTX mapping in /proc/self/maps"));
    long start = Long.parseUnsignedLong(line.substring(0, line.indexOf('-')), 16);
    ByteBuffer header = ByteBuffer.wrap(readMemory(start, 32)).order(ByteOrder.nativeOrder());
    assertThat(new String(header.array(), 0, 8, StandardCharsets.US_ASCII)).isEqualTo("OTEL_CTX");
    assertThat(header.getInt(8)).as("version").isEqualTo(2);
    assertThat(header.getLong(16)).as("published at").isNotZero();
    return header;
  }

  private static ProcessContext readPayload(ByteBuffer header) throws IOException {
    return ProcessContext.parseFrom(readMemory(header.getLong(24), header.getInt(12)));
  }

  private static byte[] readMemory(long address, int length) throws IOException {
    try (RandomAccessFile memory = new RandomAccessFile("/proc/self/mem", "r")) {
      byte[] bytes = new byte[length];
      memory.seek(address);
      memory.readFully(bytes);
      return bytes;
    }
  }
}
