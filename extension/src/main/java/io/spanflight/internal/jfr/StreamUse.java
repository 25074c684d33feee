package io.spanflight.internal.jfr;

/**
 * What {@link JfrSampleStream} does with JFR's events. Only {@link #JOIN} is Spanflight; the others
 * are arms of the overhead benchmark ({@code benchmarks/overhead}), which measure what the JFR
 * events alone cost.
 *
 * <p>Not API: internal to Spanflight.
 */
public enum StreamUse {
  /** Every event is joined and collected: Spanflight. */
  JOIN,
  /** The same events are delivered to our thread and dropped: JFR's parsing, no join. */
  DELIVER_ONLY,
  /** A plain recording of the same events that nobody reads: what JFR costs by itself. */
  RECORD_ONLY,
  /** A plain recording of the same events read by our own chunk reader and dropped. */
  OWN_READER
}
