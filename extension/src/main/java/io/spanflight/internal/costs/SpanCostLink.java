package io.spanflight.internal.costs;

import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * Where the span exporter (built by the agent's SDK) meets the profiler (started from a resource
 * customizer, possibly later): the cost table, the JFR stream's watermark and whether profiling
 * runs. Until {@link #connect} and while profiling is off, spans go out without costs.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class SpanCostLink {
  private volatile SpanCostTable table;
  private volatile LongSupplier watermark;
  private volatile BooleanSupplier running;
  private volatile Runnable requestWatermark;

  /**
   * @param watermark the newest time (nanoTime clock) up to which the JFR stream delivered events
   * @param running whether profiling is on
   * @param requestWatermark makes the stream deliver something soon (commits a marker event), so
   *     that the watermark advances in an idle application too
   */
  public void connect(
      SpanCostTable table, LongSupplier watermark, BooleanSupplier running, Runnable requestWatermark) {
    this.watermark = watermark;
    this.running = running;
    this.requestWatermark = requestWatermark;
    this.table = table; // last: connected() reads it first
  }

  /** The table, or null before {@link #connect}. */
  SpanCostTable table() {
    return table;
  }

  /** True once connected and while profiling is on. */
  boolean active() {
    return table != null && running.getAsBoolean();
  }

  /** The stream's watermark (nanoTime clock); Long.MIN_VALUE before the first event. */
  long watermarkNanos() {
    return table == null ? Long.MIN_VALUE : watermark.getAsLong();
  }

  void requestWatermark() {
    if (table != null) {
      requestWatermark.run();
    }
  }
}
