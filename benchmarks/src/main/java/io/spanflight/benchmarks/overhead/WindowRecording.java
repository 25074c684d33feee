package io.spanflight.benchmarks.overhead;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * A JFR recording of the harness's own, started in both JVMs of a pair with the events one option
 * needs ({@code --jit}: {@link JitCompilations}, {@code --tenure}: {@link OldGenPromotion}), dumped
 * after the measured window and summed in one line.
 */
abstract class WindowRecording {
  private final String name;
  private final String jfc;
  private final Path logs;

  /** {@code jfc}: the recording's settings, a JFC document enabling only the events read back. */
  WindowRecording(String name, String jfc, Path logs) {
    this.name = name;
    this.jfc = jfc;
    this.logs = logs;
  }

  /** The options that start the recording in a JVM. */
  List<String> jvmArgs() throws IOException {
    Files.createDirectories(logs);
    Path settings = logs.resolve(name + ".jfc");
    Files.writeString(settings, jfc);
    return List.of("-XX:StartFlightRecording=name=" + name + ",settings=" + settings);
  }

  /** Dumps the JVM's recording to {@code file} and reads its events. */
  final List<RecordedEvent> events(long pid, Path file) throws IOException {
    Jcmd.run(pid, "JFR.dump name=" + name + " filename=" + file);
    return RecordingFile.readAllEvents(file);
  }

  /**
   * Dumps the recording to {@code file} and says in one line what the measured window (from {@code
   * windowStart} to {@code windowEnd}, when its load ended) held, {@code requests} served.
   */
  abstract String describe(long pid, Path file, Instant windowStart, Instant windowEnd, long requests)
      throws IOException;
}
