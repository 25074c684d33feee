package io.spanflight.internal.jfr;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import jdk.jfr.consumer.RecordingStream;

/**
 * The diagnostic mode {@code stream-only} ({@link StreamUse#DELIVER_ONLY}): the same events as our
 * stream's, through the JDK's {@code RecordingStream}, delivered to our thread and dropped. What
 * the JDK's parser costs, measured against {@code reader-only} ({@link OwnReaderMode}).
 *
 * <p>Not API: internal to Spanflight.
 */
final class DeliverOnlyMode {
  /** The stream that delivers, or null before it exists. */
  private volatile RecordingStream stream;

  /**
   * Delivers on the calling thread until {@link #close} (or {@code signal}, if closed before the
   * stream starts); always false (the stream is not opened again).
   *
   * @param sources the sources to enable, looked up once the stream exists
   * @param enabled told the sources once they are enabled
   * @param logger the stream's logger, which says when the stream fails
   */
  boolean deliver(Supplier<List<JfrSource>> sources, Duration maxAge, Duration scopeEventThreshold,
      Consumer<List<JfrSource>> enabled, CloseSignal signal, Logger logger) {
    try (RecordingStream rs = new RecordingStream()) {
      rs.setReuse(false);
      rs.setMaxAge(maxAge);
      List<JfrSource> sourceList = sources.get();
      OurEvents.enable(rs::enable, rs::enable, sourceList, scopeEventThreshold);
      for (JfrSource source : sourceList) {
        rs.onEvent(source.eventName, event -> {});
      }
      enabled.accept(sourceList);
      stream = rs;
      if (!signal.closed()) {
        rs.start(); // on this daemon thread, until close() closes it
      }
      return false;
    } catch (Throwable t) {
      logger.log(Level.SEVERE, "Spanflight: the JFR stream (diagnostic mode stream-only) stopped", t);
      return false;
    }
  }

  /** Ends the delivery, if it began; after {@code signal} is closed. */
  void close() {
    RecordingStream rs = stream;
    if (rs != null) {
      rs.close();
    }
  }
}
