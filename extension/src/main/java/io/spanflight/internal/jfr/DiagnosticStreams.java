package io.spanflight.internal.jfr;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.logging.Logger;

/**
 * The diagnostic modes of {@code otel.spanflight.diagnostic.mode}: each runs the JFR part of
 * Spanflight alone ({@link StreamUse}), so that what JFR's events cost can be measured without the
 * join. {@code JfrSampleStream} hands a run here whenever its use is not {@link StreamUse#JOIN};
 * the data path itself does not know about them.
 *
 * <p>Not API: internal to Spanflight.
 */
final class DiagnosticStreams {
  /** The {@code stream-only} mode's stream, made only when that mode runs. */
  private final DeliverOnlyMode deliverOnly = new DeliverOnlyMode();

  /**
   * Runs one recording of the diagnostic mode {@code use} until {@code signal} is closed; true when
   * a new one should be started.
   *
   * @param sources the sources to enable, looked up once the recording exists
   * @param enabled told the sources once they are enabled
   * @param logger the stream's logger
   */
  boolean run(StreamUse use, Supplier<List<JfrSource>> sources, Duration maxAge, Duration scopeEventThreshold,
      Consumer<List<JfrSource>> enabled, CloseSignal signal, Logger logger) {
    switch (use) {
      case RECORD_ONLY:
        return RecordOnlyMode.record(sources, maxAge, scopeEventThreshold, enabled, signal, logger);
      case OWN_READER:
        return OwnReaderMode.read(sources, maxAge, scopeEventThreshold, enabled, signal, logger);
      case DELIVER_ONLY:
        return deliverOnly.deliver(sources, maxAge, scopeEventThreshold, enabled, signal, logger);
      default:
        throw new IllegalArgumentException("not a diagnostic mode: " + use);
    }
  }

  /** Closes the {@code stream-only} mode's stream, if it runs. */
  void close() {
    deliverOnly.close();
  }
}
