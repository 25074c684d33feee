package io.spanflight.internal.jfr;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Chunk rotation ends the running recordings' chunk when due, and only then. JFR writes a
 * {@code jdk.ActiveRecording} event for every running recording at the start of each chunk, so a
 * recording's own file tells how many chunks it spans.
 */
class ChunkRotationTest {
  private static final long PERIOD = TimeUnit.SECONDS.toNanos(ChunkRotation.PERIOD_SECONDS);

  @Test
  void endsTheChunkWhenDueAndNotBefore(@TempDir Path dir) throws Exception {
    long withoutRotation = chunkStartsSeenBy(dir.resolve("plain.jfr"), new long[0]);
    long t0 = System.nanoTime();
    // created at about t0: not due at t0, due after one period, not again until the next one
    long withRotation = chunkStartsSeenBy(
        dir.resolve("rotated.jfr"), new long[] {t0, t0 + PERIOD + 1, t0 + PERIOD + 2, t0 + 2 * PERIOD + 2});

    assertThat(withRotation)
        .as("chunk starts in a recording's file: two rotations, each a start and a stop of the empty"
            + " recording, against " + withoutRotation + " without")
        .isGreaterThanOrEqualTo(withoutRotation + 2);
  }

  @Test
  void countsOnlyTheRotationsDone() {
    ChunkRotation rotation = new ChunkRotation();
    long t0 = System.nanoTime();
    rotation.rotateIfDue(t0);
    rotation.rotateIfDue(t0 + PERIOD + 1);
    rotation.rotateIfDue(t0 + PERIOD + 2);
    rotation.rotateIfDue(t0 + 2 * PERIOD + 2);

    assertThat(rotation.rotations()).isEqualTo(2);
  }

  /** Runs a recording while rotating at the given instants; the ActiveRecording events it holds. */
  private static long chunkStartsSeenBy(Path file, long[] instants) throws Exception {
    ChunkRotation rotation = new ChunkRotation();
    try (Recording recording = new Recording()) {
      recording.setName("chunk-rotation-test");
      recording.enable("jdk.ActiveRecording");
      recording.start();
      for (long instant : instants) {
        rotation.rotateIfDue(instant);
      }
      recording.stop();
      recording.dump(file);
    }
    long count = 0;
    for (RecordedEvent event : RecordingFile.readAllEvents(file)) {
      if (event.getEventType().getName().equals("jdk.ActiveRecording")
          && "chunk-rotation-test".equals(event.getString("name"))) {
        count++;
      }
    }
    return count;
  }
}
