package io.spanflight.internal.costs;

/**
 * The values of {@code spanflight.cost.status}: whether the cost attributes of a span are known
 * (then present, and zero means none was seen) or unknown (then absent).
 *
 * <p>Not API: internal to Spanflight.
 */
final class CostStatus {
  /** The JFR stream delivered events past the span's end: its costs are all in. */
  static final String OK = "ok";
  /** The stream did not reach the span's end within the wait: sent without costs. */
  static final String TIMEOUT = "timeout";
  /** The held-span bound was reached: sent at once, without costs. */
  static final String OVERFLOW = "overflow";
  /** The cost table was full during the span's life: some of its events were not counted. */
  static final String INCOMPLETE = "incomplete";
  /** Profiling was off (switched off, or not started yet). */
  static final String OFF = "off";
  /** Flushed (SDK flush or shutdown) before the stream reached the span's end. */
  static final String FLUSHED = "flushed";

  private CostStatus() {}
}
