package io.spanflight.internal.jfr;

/**
 * What {@link JfrSampleStream} does with JFR's events. {@link #JOIN} is Spanflight; the others are
 * diagnostic modes ({@code otel.spanflight.diagnostic.mode}) that run the JFR part alone, to
 * measure what the JFR events cost without the rest.
 *
 * <p>Not API: internal to Spanflight.
 */
public enum StreamUse {
  /** Every event is joined and collected: Spanflight. */
  JOIN,
  /** {@code stream-only}: the same events delivered by the JDK's stream to our thread and dropped. */
  DELIVER_ONLY,
  /** {@code jfr-only}: a plain recording of the same events that nobody reads: what JFR costs by itself. */
  RECORD_ONLY,
  /** {@code reader-only}: a plain recording of the same events read by our own chunk reader and dropped. */
  OWN_READER
}
