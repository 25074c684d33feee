package io.spanflight.internal.bridge;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * What a defined context costs in resident native memory. Every table slot up to the most
 * contexts alive at once stays resident (on Spring PetClinic, 41 561 contexts were alive at once),
 * so the slot is what matters, not the 640-byte record it is copied into.
 */
class ContextTableMemoryTest {
  private static final int CONTEXTS = 200_000;
  /** A 128-byte entry plus slack for what else the JVM touches meanwhile; a 640-byte one is 644. */
  private static final long MAX_BYTES_PER_CONTEXT = 320;

  private final NativeContextBridge bridge = NativeTestSupport.bridge();

  @Test
  void aContextWithRouteAndMethodCostsAboutItsEntry() throws IOException {
    byte[] attrs = routeAndMethod("/owners/{ownerId}", "GET");
    int first = ContextIds.first(3_000_000); // slots no other test defines
    bridge.define(first, 1, 1, 1, (byte) 1, attrs); // the first chunk's pages before measuring
    long before = residentAnonymousBytes();

    for (int i = 1; i <= CONTEXTS; i++) {
      bridge.define(first + i, 1, i, i, (byte) 1, attrs);
    }
    long grown = residentAnonymousBytes() - before;

    assertThat(grown / CONTEXTS).as("resident bytes per defined context (%d grown)", grown).isLessThanOrEqualTo(MAX_BYTES_PER_CONTEXT);
    bridge.switchTo(first + CONTEXTS);
    assertThat(ExternalRecordReader.readOwnThread()[24]).as("the last one still publishes").isEqualTo((byte) 1);
    bridge.switchTo(0);
  }

  /** Packed {key index, length, utf-8} entries, as the registry writes them. */
  private static byte[] routeAndMethod(String route, String method) {
    byte[] r = route.getBytes(StandardCharsets.UTF_8);
    byte[] m = method.getBytes(StandardCharsets.UTF_8);
    ByteBuffer out = ByteBuffer.allocate(4 + r.length + m.length);
    out.put((byte) 0).put((byte) r.length).put(r).put((byte) 1).put((byte) m.length).put(m);
    return out.array();
  }

  private static long residentAnonymousBytes() throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (line.startsWith("RssAnon:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
      }
    }
    throw new IllegalStateException("no RssAnon in /proc/self/status");
  }
}
