package io.spanflight.internal.jfr;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import jdk.jfr.Recording;

/**
 * The diagnostic mode {@code jfr-only} ({@link StreamUse#RECORD_ONLY}): the same events as our
 * stream's, in a plain recording on disk, kept as long as our stream keeps them, read by nobody.
 * What JFR costs by itself.
 *
 * <p>Not API: internal to Spanflight.
 */
final class RecordOnlyMode {
  private RecordOnlyMode() {}

  /**
   * Records until {@code signal} is closed; always false (the stream is not opened again).
   *
   * @param sources the sources to enable, looked up once the recording exists
   * @param enabled told the sources once they are enabled
   * @param logger the stream's logger, which says when the recording fails
   */
  static boolean record(Supplier<List<JfrSource>> sources, Duration maxAge, Duration scopeEventThreshold,
      Consumer<List<JfrSource>> enabled, CloseSignal signal, Logger logger) {
    try (Recording recording = PlainRecording.start(sources.get(), maxAge, scopeEventThreshold, enabled)) {
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
}
