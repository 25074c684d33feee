package io.spanflight.internal.jfr;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import jdk.jfr.Recording;

/**
 * The overhead benchmark's {@link StreamUse#RECORD_ONLY} arm: the same events as our
 * stream's, in a plain recording on disk, kept as long as our stream keeps them, read by nobody.
 * What JFR costs by itself.
 *
 * <p>Not API: internal to Spanflight.
 */
final class RecordOnlyArm {
  /** Our recording's name, as {@code jcmd JFR.check} and JMC list it. */
  static final String RECORDING_NAME = "Spanflight";

  private RecordOnlyArm() {}

  /**
   * Records until {@code signal} is closed; always false (the stream is not opened again).
   *
   * @param sources the sources to enable, looked up once the recording exists
   * @param enabled told the sources once they are enabled
   * @param logger the stream's logger, which says when the recording fails
   */
  static boolean record(Supplier<List<JfrSource>> sources, Duration maxAge, Duration scopeEventThreshold,
      Consumer<List<JfrSource>> enabled, CloseSignal signal, Logger logger) {
    try (Recording recording = start(sources.get(), maxAge, scopeEventThreshold, enabled)) {
      signal.awaitClose();
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } catch (Throwable t) {
      logger.log(Level.SEVERE, "Spanflight: the JFR recording failed", t);
      return false;
    }
  }

  /**
   * Starts our plain recording on disk of the events {@link OurEvents} enables for {@code
   * sourceList}, kept for {@code maxAge}; tells {@code enabled} the sources once they are enabled.
   * Spanflight's own recording and the benchmark's plain-recording arms all start here.
   */
  static Recording start(List<JfrSource> sourceList, Duration maxAge, Duration scopeEventThreshold,
      Consumer<List<JfrSource>> enabled) {
    Recording recording = new Recording();
    try {
      recording.setName(RECORDING_NAME);
      recording.setToDisk(true);
      recording.setMaxAge(maxAge);
      OurEvents.enable(recording::enable, recording::enable, sourceList, scopeEventThreshold);
      enabled.accept(sourceList);
      recording.start();
      return recording;
    } catch (RuntimeException | Error e) {
      recording.close();
      throw e;
    }
  }
}
