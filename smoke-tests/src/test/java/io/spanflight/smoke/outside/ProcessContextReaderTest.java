package io.spanflight.smoke.outside;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.processcontext.v1development.ProcessContext;
import io.opentelemetry.proto.resource.v1.Resource;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The outside reader's protocol against a simulated process: it reads again while an update is in
 * progress or overtook it, gives up after its attempts, and refuses a wrong header.
 */
class ProcessContextReaderTest {
  private static final long HEADER = 0x7000_0000L;
  private static final long PAYLOAD = 0x7100_0000L;

  /** A header whose publication time reads as the queued values, one per read of the header or time. */
  private static final class SimulatedProcess implements ProcessContextReader.Memory {
    final Deque<Long> times = new ArrayDeque<>();
    byte[] payload = context("svc").toByteArray();
    int version = 2;

    @Override
    public byte[] read(long address, int length) throws IOException {
      if (address == PAYLOAD && length == payload.length) {
        return payload;
      }
      long time = times.size() > 1 ? times.poll() : times.getFirst();
      if (address == HEADER) {
        return ByteBuffer.allocate(32).order(ByteOrder.LITTLE_ENDIAN).put("OTEL_CTX".getBytes(StandardCharsets.US_ASCII))
            .putInt(version).putInt(payload.length).putLong(time).putLong(PAYLOAD).array();
      } else if (address == HEADER + 16) {
        return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(time).array();
      }
      throw new IOException("unmapped: " + address + " (" + length + " bytes)");
    }
  }

  static ProcessContext context(String service) {
    return ProcessContext.newBuilder().setResource(Resource.newBuilder().addAttributes(KeyValue.newBuilder()
        .setKey("service.name").setValue(AnyValue.newBuilder().setStringValue(service)))).build();
  }

  @Test
  void readsAgainWhileAnUpdateIsInProgressOrOvertookTheRead() throws IOException {
    SimulatedProcess process = new SimulatedProcess();
    // header read while in progress (0) twice; then 5 before the payload, 6 after it: overtaken; then 6, 6
    process.times.addAll(List.of(0L, 0L, 5L, 6L, 6L, 6L));
    ProcessContextReader.Snapshot snapshot = ProcessContextReader.read(process, HEADER, "[anon:OTEL_CTX]", 5);
    assertThat(snapshot.attempts()).isEqualTo(4);
    assertThat(snapshot.publishedAtNs()).isEqualTo(6);
    assertThat(snapshot.context()).isEqualTo(context("svc"));
  }

  @Test
  void givesUpAfterItsAttempts() {
    SimulatedProcess process = new SimulatedProcess();
    process.times.addAll(List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L));
    assertThatThrownBy(() -> ProcessContextReader.read(process, HEADER, "x", 3))
        .hasMessageContaining("no consistent read in 3 attempts").hasMessageContaining("overtook");
  }

  @Test
  void refusesAnotherVersionOrAPayloadThatIsNotAProcessContext() {
    SimulatedProcess process = new SimulatedProcess();
    process.times.add(1L);
    process.version = 1;
    assertThatThrownBy(() -> ProcessContextReader.read(process, HEADER, "x", 3)).hasMessageContaining("version 1");
    process.version = 2;
    process.payload = new byte[] {(byte) 0xff, (byte) 0xff};
    assertThatThrownBy(() -> ProcessContextReader.read(process, HEADER, "x", 3)).hasMessageContaining("not a ProcessContext");
  }

  @Test
  void findsTheOneMappingByItsNames() throws IOException {
    String memfd = "7f45bc002000-7f45bc003000 rw-s 00000000 00:01 25                         /memfd:OTEL_CTX (deleted)";
    String other = "7f45bc004000-7f45bc005000 rw-p 00000000 00:00 0                          [anon:OTEL_CTX_NOT]";
    assertThat(ProcessContextReader.mappingLine(List.of(other, memfd))).isEqualTo(memfd);
    assertThat(ProcessContextReader.nameOf("7f-80 rw-p 00000000 00:00 0 [anon_shmem:OTEL_CTX]")).isEqualTo("[anon_shmem:OTEL_CTX]");
    assertThatThrownBy(() -> ProcessContextReader.mappingLine(List.of(other))).hasMessageContaining("expected one");
    assertThatThrownBy(() -> ProcessContextReader.mappingLine(List.of(memfd, memfd))).hasMessageContaining("expected one");
    assertThatThrownBy(() -> ProcessContextReader.mappingLine(List.of(memfd.replace("rw-s", "r--s"))))
        .hasMessageContaining("not readable and writable");
  }
}
