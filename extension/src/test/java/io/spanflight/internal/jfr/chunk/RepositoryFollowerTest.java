package io.spanflight.internal.jfr.chunk;

import static org.assertj.core.api.Assertions.assertThat;

import io.spanflight.internal.jfr.chunk.ChunkSamples.Sample;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RepositoryFollowerTest {
  @TempDir Path dir;

  @Test
  void followingTheRepositoryWhileJfrWritesReadsWhatTheRecordingHolds() throws Exception {
    assertFollowingReadsWhatTheRecordingHolds(ChunkReader.MAX_STACK_ENTRIES);
  }

  @Test
  void stacksLetGoOfWithinAChunkAreReadAgainFromTheChunkFile() throws Exception {
    ChunkReader reader = assertFollowingReadsWhatTheRecordingHolds(500);

    assertThat(reader.stacksReadAgain()).isPositive();
  }

  /** Follows the repository while JFR writes two chunks; returns the reader used. */
  private ChunkReader assertFollowingReadsWhatTheRecordingHolds(long maxStackEntries) throws Exception {
    List<Sample> followed = new ArrayList<>();
    ChunkReader reader;
    Path dump = dir.resolve("dump.jfr");
    try (Recording recording = new Recording()) {
      recording.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(1));
      recording.enable("jdk.ObjectAllocationSample").with("throttle", "10000/s");
      recording.setToDisk(true);
      recording.start();
      ConstantStore store = new ConstantStore();
      reader = ChunkSamples.reader(store, followed, ChunkReader.MAX_STORE_ENTRIES, maxStackEntries);
      try (RepositoryFollower follower = new RepositoryFollower(Path.of(System.getProperty("jdk.jfr.repository")), reader)) {
        // JFR flushes a disk recording about once a second: poll until two flushes were read
        // in the first chunk, then end it and poll until the second had one too
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        int flushesRead = 0;
        while (flushesRead < 3 && System.nanoTime() < deadline) {
          int before = followed.size();
          ChunkFixture.busy(200);
          follower.poll();
          if (followed.size() > before && ++flushesRead == 2) {
            try (Recording boundary = new Recording()) { // a recording starting ends JFR's chunk
              boundary.start();
            }
          }
        }
        recording.stop();
        follower.poll();
        assertThat(flushesRead).as("flushes read while JFR wrote").isEqualTo(3);
        assertThat(follower.chunks()).as("chunks followed").isGreaterThanOrEqualTo(2);
      }
      recording.dump(dump);
    }
    List<Sample> recorded = ChunkSamples.byTheJdk(dump);

    assertThat(recorded).hasSizeGreaterThan(50);
    assertThat(followed.stream().map(Sample::line).toList())
        .containsExactlyElementsOf(recorded.stream().map(Sample::line).toList());
    return reader;
  }
}
