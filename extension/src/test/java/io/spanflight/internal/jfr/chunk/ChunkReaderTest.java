package io.spanflight.internal.jfr.chunk;

import static org.assertj.core.api.Assertions.assertThat;

import io.spanflight.internal.jfr.chunk.ChunkSamples.Sample;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ChunkReaderTest {
  @TempDir Path dir;

  @Test
  void readsTheSameSamplesAsTheJdksParserFromARecordingOfThisJvm() throws Exception {
    Path file = dir.resolve("live.jfr");
    ChunkFixture.record(file, 300);

    assertReadAsTheJdkReadsIt(file);
  }

  @ParameterizedTest
  @ValueSource(strings = {"jdk17.jfr", "jdk25.jfr"})
  void readsTheSameSamplesAsTheJdksParserFromTheFixtures(String fixture) throws Exception {
    assertReadAsTheJdkReadsIt(ChunkFiles.fixture(fixture, dir));
  }

  @Test
  void aStoreKeptAcrossReadsGivesEachStackOneIndex() throws Exception {
    Path file = ChunkFiles.fixture("jdk25.jfr", dir);
    ConstantStore store = new ConstantStore();
    List<Sample> first = ChunkSamples.byChunkReader(file, store);
    long entries = store.entries();

    List<Sample> second = ChunkSamples.byChunkReader(file, store);

    assertThat(second).isEqualTo(first);
    assertThat(store.entries()).isEqualTo(entries);
  }

  @Test
  void aStoreClearedBetweenChunksStillGivesEveryStackRight() throws Exception {
    Path file = ChunkFiles.fixture("jdk25.jfr", dir);
    ConstantStore store = new ConstantStore();
    List<Sample> read = new ArrayList<>();

    ChunkSamples.reader(store, read, 1).read(file);

    assertThat(store.generation()).as("store cleared before the second and third chunks").isEqualTo(2);
    assertThat(read.stream().map(Sample::line).toList())
        .containsExactlyElementsOf(ChunkSamples.byTheJdk(file).stream().map(Sample::line).toList());
  }

  @Test
  void aStoreThatLetsGoOfStacksWithinAChunkReadsThemAgainAndGivesEveryStackRight() throws Exception {
    Path file = ChunkFiles.fixture("jdk25.jfr", dir);
    ConstantStore store = new ConstantStore();
    List<Sample> read = new ArrayList<>();
    long bound = 40;

    ChunkReader reader = ChunkSamples.reader(store, read, ChunkReader.MAX_STORE_ENTRIES, bound);
    reader.read(file);

    assertThat(store.generation()).as("stacks let go of within the chunks").isGreaterThan(3);
    assertThat(reader.stacksReadAgain()).isPositive();
    assertThat(store.stackEntries()).isLessThanOrEqualTo(bound);
    assertThat(read).containsExactlyElementsOf(ChunkSamples.byTheJdk(file));
  }

  @Test
  void aStackThatCannotBeReadAgainIsNoStackNeverAnotherOne() throws Exception {
    byte[] bytes = ChunkFiles.bytes("jdk25.jfr");
    ChunkHeader first = ChunkHeader.read(new ChunkInput(bytes, 0, bytes.length), bytes.length);
    ConstantStore store = new ConstantStore();
    List<Sample> read = new ArrayList<>();
    ChunkReader reader = ChunkSamples.reader(store, read, ChunkReader.MAX_STORE_ENTRIES, 40);

    reader.startChunk();
    reader.update(new ChunkInput(bytes, 0, (int) first.size()), first, (offset, length) -> {
      throw new IOException("gone");
    });

    List<String> expected = ChunkSamples.byTheJdk(ChunkFiles.fixture("jdk25.jfr", dir)).stream()
        .limit(read.size()).map(Sample::line).toList();
    List<String> lines = read.stream().map(Sample::line).toList();
    assertThat(lines).hasSizeGreaterThan(50).anyMatch(line -> line.endsWith(" no stack"));
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.endsWith(" no stack")) { // the same event, its stack not given
        assertThat(expected.get(i)).startsWith(line.substring(0, line.length() - " no stack".length()) + " | ");
      } else {
        assertThat(line).as("event %d", i).isEqualTo(expected.get(i));
      }
    }
    assertThat(reader.stacksReadAgain()).isZero();
  }

  /** The same events in the same order with the same times, fields and frames. */
  private static void assertReadAsTheJdkReadsIt(Path file) throws Exception {
    List<Sample> expected = ChunkSamples.byTheJdk(file);
    List<Sample> read = ChunkSamples.byChunkReader(file, new ConstantStore());

    assertThat(lines(expected)).hasSizeGreaterThan(50).anyMatch(line -> line.contains("ChunkFixture.busy"))
        .anyMatch(line -> line.startsWith("jdk.ObjectAllocationSample"));
    assertThat(read).containsExactlyElementsOf(expected);
  }

  private static List<String> lines(List<Sample> samples) {
    return samples.stream().map(Sample::line).toList();
  }
}
