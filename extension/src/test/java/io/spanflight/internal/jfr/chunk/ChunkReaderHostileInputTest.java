package io.spanflight.internal.jfr.chunk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Chunks damaged in many ways: whatever the bytes, the reader reads them or throws a {@link
 * ChunkFormatException}; nothing else escapes, not from it and not from what it hands the handler
 * to resolve. Seeded, so a failure names the input that made it.
 */
class ChunkReaderHostileInputTest {
  private static final int INPUTS = 3_000;

  @ParameterizedTest
  @ValueSource(strings = {"jdk17.jfr", "jdk25.jfr"})
  void damagedChunksAreReadOrRejectedWithOurException(String fixture) throws Exception {
    byte[] original = ChunkFiles.bytes(fixture);
    int rejected = 0;
    for (int seed = 0; seed < INPUTS; seed++) {
      Random random = new Random(seed);
      byte[] bytes = damage(original, random);
      int length = seed % 10 == 0 ? random.nextInt(bytes.length) : bytes.length;
      try {
        // every third input with a store that lets go of its stacks: they are read again, damaged too
        read(bytes, length, seed % 2 == 1, seed % 3 == 0 ? 40 : ChunkReader.MAX_STACK_ENTRIES);
      } catch (ChunkFormatException e) {
        assertThat(e.getMessage()).isNotBlank();
        rejected++;
      } catch (RuntimeException | Error e) {
        fail("input " + seed + " of " + fixture + " made the reader throw " + e, e);
      }
    }
    assertThat(rejected).as("damaged inputs rejected").isGreaterThan(INPUTS / 10);
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 3, 4, 8, 16, 24})
  void aHeaderDamagedAtAFieldIsRejected(int offset) throws Exception {
    byte[] bytes = ChunkFiles.bytes("jdk25.jfr");
    Arrays.fill(bytes, offset, offset + 4, (byte) 0x7F);

    assertThatThrownBy(() -> read(bytes, bytes.length, false, ChunkReader.MAX_STACK_ENTRIES)).isInstanceOf(ChunkFormatException.class);
  }

  /** A copy with a few bytes flipped, set to extremes, or a run repeated over another. */
  private static byte[] damage(byte[] original, Random random) {
    byte[] bytes = original.clone();
    int changes = 1 + random.nextInt(8);
    for (int i = 0; i < changes; i++) {
      int at = random.nextInt(bytes.length);
      switch (random.nextInt(4)) {
        case 0 -> bytes[at] ^= (byte) (1 << random.nextInt(8));
        case 1 -> bytes[at] = (byte) (random.nextBoolean() ? 0xFF : 0x00);
        case 2 -> Arrays.fill(bytes, at, Math.min(bytes.length, at + 1 + random.nextInt(9)), (byte) 0xFF);
        default -> {
          int from = random.nextInt(bytes.length);
          int length = Math.min(random.nextInt(64), Math.min(bytes.length - at, bytes.length - from));
          System.arraycopy(original, from, bytes, at, length);
        }
      }
    }
    return bytes;
  }

  /** Reads, in time order or not, resolving every reference handed out as a consumer would. */
  private static void read(byte[] bytes, int length, boolean inTimeOrder, long maxStackEntries)
      throws ChunkFormatException {
    ConstantStore store = new ConstantStore();
    ChunkReader[] reader = new ChunkReader[1];
    reader[0] = new ChunkReader(store, ChunkSamples.EVENTS, ChunkSamples.FIELDS, (subscription, values) -> {
      reader[0].nanos(values[0]);
      reader[0].javaThreadId(values[1]);
      int stack = reader[0].stack(values[2]);
      for (int i = 0; stack >= 0 && i < store.stackLength(stack); i++) {
        int method = store.frameMethod(store.frame(stack, i));
        store.methodName(method);
        store.string(store.methodClass(method));
      }
      if (subscription == 1 && reader[0].className(values[3]) >= 0) {
        store.string(reader[0].className(values[3]));
      }
    }, ChunkReader.MAX_STORE_ENTRIES, maxStackEntries);
    if (inTimeOrder) {
      reader[0].inTimeOrder();
    }
    reader[0].read(bytes, length);
  }
}
