package io.spanflight.internal.costs;

import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
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
  private Consumer<SpanCostTable> startFeeding; // guarded by this
  private boolean exporterWrapped; // guarded by this
  private boolean feeding; // guarded by this

  /**
   * @param watermark the newest time (nanoTime clock) up to which the JFR stream delivered events
   * @param running whether profiling is on
   * @param requestWatermark makes the stream deliver something soon (commits a marker event), so
   *     that the watermark advances in an idle application too
   * @param startFeeding makes the join add to {@code table}; called once a span exporter was wrapped
   *     (with no traces exporter, nobody would take the entries)
   */
  public synchronized void connect(
      SpanCostTable table,
      LongSupplier watermark,
      BooleanSupplier running,
      Runnable requestWatermark,
      Consumer<SpanCostTable> startFeeding) {
    this.watermark = watermark;
    this.running = running;
    this.requestWatermark = requestWatermark;
    this.startFeeding = startFeeding;
    this.table = table; // last: the exporter's threads read it first
    feedWhenBothAreThere();
  }

  /** A span exporter now takes the costs (in whichever order this and {@link #connect} come). */
  public synchronized void exporterWrapped() {
    exporterWrapped = true;
    feedWhenBothAreThere();
  }

  private void feedWhenBothAreThere() {
    if (exporterWrapped && table != null && !feeding) {
      feeding = true;
      startFeeding.accept(table);
    }
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
