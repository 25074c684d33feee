package io.spanflight.internal.bridge;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * What a defined context costs in resident native memory. Every table slot up to the most
 * contexts alive at once stays resident (on Spring PetClinic, 60 000 contexts were alive at once),
 * so the slot is what matters, not the 640-byte record it is copied into.
 */
class ContextTableMemoryTest {
  private static final int CONTEXTS = 200_000;
  /**
   * A 40-byte entry plus slack for what else the JVM touches meanwhile (an entry holding the
   * attributes itself, as before shared sets, was 128 bytes; a 640-byte record is 644).
   */
  private static final long MAX_BYTES_PER_SHARED_CONTEXT = 80;
  /** The entry, its pointer to a block of its own and the block (64 bytes, 80 with malloc's header): 128. */
  private static final long MAX_BYTES_PER_OWN_CONTEXT = 170;

  private final NativeContextBridge bridge = NativeTestSupport.bridge();

  @Test
  void aContextWithASharedRouteAndMethodCostsAboutItsEntry() throws IOException {
    byte[] attrs = routeAndMethod("/owners/{ownerId}", "GET");
    long perContext = bytesPerContext(3_000_000, i -> attrs, 61_001); // slots and a set no other test uses
    assertThat(perContext).as("resident bytes per context").isLessThanOrEqualTo(MAX_BYTES_PER_SHARED_CONTEXT);
  }

  @Test
  void aContextWithAttributesOfItsOwnCostsAboutItsEntryAndBlock() throws IOException {
    long perContext = bytesPerContext(3_500_000, i -> routeAndMethod("/tenants/" + i, "GET"), ContextBridge.OWN_ATTRIBUTES);
    assertThat(perContext).as("resident bytes per context").isLessThanOrEqualTo(MAX_BYTES_PER_OWN_CONTEXT);
  }

  /** Defines CONTEXTS contexts from slot {@code firstSlot} on and returns the resident growth per context. */
  private long bytesPerContext(int firstSlot, IntFunction<byte[]> attrs, int set) throws IOException {
    int first = ContextIds.first(firstSlot);
    bridge.define(first, 1, 1, 1, (byte) 1, attrs.apply(0), set); // the first chunk's pages before measuring
    byte[][] given = new byte[CONTEXTS + 1][];
    for (int i = 1; i <= CONTEXTS; i++) {
      given[i] = attrs.apply(i); // made before measuring: the heap may grow meanwhile
    }
    long before = residentAnonymousBytes();

    for (int i = 1; i <= CONTEXTS; i++) {
      bridge.define(first + i, 1, i, i, (byte) 1, given[i], set);
    }
    long grown = residentAnonymousBytes() - before;

    bridge.switchTo(first + CONTEXTS);
    assertThat(ExternalRecordReader.readOwnThread()[24]).as("the last one still publishes").isEqualTo((byte) 1);
    assertThat(ExternalRecordReader.readOwnThread()).as("with its attributes").endsWith(given[CONTEXTS]);
    bridge.switchTo(0);
    System.out.printf("%d contexts: %d resident bytes each (%d grown)%n", CONTEXTS, grown / CONTEXTS, grown);
    return grown / CONTEXTS;
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
