package io.spanflight.internal.jfr.chunk;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import jdk.jfr.Recording;

/**
 * Makes a small recording of two chunks with execution and allocation samples: what the reader
 * tests read, live and as the committed fixtures. The fixtures under {@code
 * src/test/resources/io/spanflight/internal/jfr/chunk/} were made with {@code java -cp
 * extension/target/test-classes io.spanflight.internal.jfr.chunk.ChunkFixture <file>} on JDK 17
 * and on JDK 25.
 */
final class ChunkFixture {
  private ChunkFixture() {}

  public static void main(String[] args) throws IOException {
    record(Path.of(args[0]), 100);
  }

  /** Records about {@code millis} twice, with a chunk boundary between, into {@code file}. */
  static void record(Path file, long millis) throws IOException {
    try (Recording recording = new Recording()) {
      recording.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(1));
      recording.enable("jdk.ObjectAllocationSample").with("throttle", "10000/s");
      recording.start();
      busy(millis);
      try (Recording boundary = new Recording()) { // a recording starting ends JFR's chunk
        boundary.start();
      }
      busy(millis);
      recording.stop();
      recording.dump(file);
    }
  }

  /** Burns CPU and allocates for about {@code millis}, a few frames below the caller. */
  static long busy(long millis) {
    long deadline = System.nanoTime() + millis * 1_000_000;
    long sum = 0;
    List<Object> kept = new ArrayList<>();
    while (System.nanoTime() < deadline) {
      for (int i = 0; i < 10_000; i++) {
        sum += Long.toString(sum + i).length();
      }
      kept.add(new int[1024]);
      if (kept.size() > 100) {
        kept.clear();
      }
    }
    return sum;
  }
}
