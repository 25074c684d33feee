package io.spanflight.internal.jfr.chunk;

import static org.assertj.core.api.Assertions.assertThat;

import io.spanflight.internal.jfr.chunk.ChunkSamples.Sample;
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
