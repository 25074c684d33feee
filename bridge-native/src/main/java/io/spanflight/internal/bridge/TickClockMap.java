package io.spanflight.internal.bridge;

/**
 * Maps TSC ticks onto {@link System#nanoTime()} nanoseconds with a least-squares line through
 * the last {@value #WINDOW} calibration pairs (ticks, nanoTime), each read back-to-back by the
 * drain. A tick is mapped only when the map can vouch for it:
 *
 * <ul>
 *   <li>at least {@value #MIN_PAIRS} pairs, and every pair of the window within
 *       {@value #MAX_RESIDUAL_NANOS} ns of the line (a clock that does not follow the TSC closely,
 *       or a pair misread, shows here);
 *   <li>the tick lies between the oldest and the newest pair (interpolation only; a few ticks
 *       past the newest for reads reordered around the drain's own), so no entry is ever placed
 *       by a line extrapolated over a stretch where the rate may have changed.
 * </ul>
 *
 * <p>Otherwise {@link #toNanos} answers {@link #UNKNOWN}. Pairs whose own uncertainty exceeds
 * {@value #MAX_PAIR_UNCERTAINTY_NANOS} ns (the drain was preempted while reading) are not added.
 *
 * <p>Why not the extension's {@code jfr.clock.ClockFit}, which also fits a line to clock pairs: the
 * errors differ, and so does the question. Here both readings of a pair are taken back-to-back
 * with a measured uncertainty, so the noise is small and on both sides of the line, and a plain
 * least-squares fit is right; ring entries always lie between pairs already read, so this map only
 * interpolates and refuses the rest. {@code ClockFit}'s nanoTime is read an unknown delay after
 * JFR's tick (one-sided, microseconds when preempted), so it fits the lower envelope with
 * Theil-Sen slopes; its samples arrive after the newest calibration, so it extrapolates under a
 * stated error bound. One shared fit would lose either this map's 200 ns or ClockFit's robustness,
 * and this module depends on nothing of the extension's.
 *
 * <p>Not API: internal to Spanflight.
 */
final class TickClockMap {
  static final long UNKNOWN = Long.MIN_VALUE;
  static final int WINDOW = 32;
  static final int MIN_PAIRS = 8;
  static final long MAX_RESIDUAL_NANOS = 200;
  static final long MAX_PAIR_UNCERTAINTY_NANOS = 1_000;
  /** How far past the newest pair a tick may lie and still be mapped. */
  static final long SLACK_NANOS = 1_000;

  private final long[] ticks = new long[WINDOW];
  private final long[] nanos = new long[WINDOW];
  private int count;
  private int next;
  // The fit, relative to the oldest pair: nanos = baseNanos + slope * (tick - baseTicks).
  private boolean fits;
  private long baseTicks;
  private long baseNanos;
  private double slope;
  private long firstTick;
  private long lastTick;
  private long maxResidual;

  /**
   * Adds a pair and refits.
   *
   * @return false if the pair was not added (too uncertain, or not after the newest)
   */
  boolean add(long tick, long nanoTime, long uncertaintyNanos) {
    if (uncertaintyNanos > MAX_PAIR_UNCERTAINTY_NANOS || uncertaintyNanos < 0
        || (count > 0 && (tick <= lastTick || nanoTime < nanosAt(count - 1)))) {
      return false;
    }
    ticks[next] = tick;
    nanos[next] = nanoTime;
    next = (next + 1) % WINDOW;
    count = Math.min(count + 1, WINDOW);
    refit();
    return true;
  }

  /** Forgets every pair: nothing maps until {@value #MIN_PAIRS} new ones fit. */
  void reset() {
    count = 0;
    next = 0;
    fits = false;
  }

  /** Whether the current window fits a line closely enough to map ticks. */
  boolean fits() {
    return fits;
  }

  /** The largest distance of a pair from the line, in ns (meaningful from 3 pairs on). */
  long maxResidualNanos() {
    return maxResidual;
  }

  /** Nanoseconds per tick of the current fit. */
  double slope() {
    return slope;
  }

  /** The tick on the {@code nanoTime} clock, or {@link #UNKNOWN}. */
  long toNanos(long tick) {
    if (!fits || tick < firstTick || tick - lastTick > SLACK_NANOS / slope) {
      return UNKNOWN;
    }
    return baseNanos + Math.round(slope * (tick - baseTicks));
  }

  private int indexOf(int i) { // i = 0 is the oldest pair of the window
    return (next - count + i + WINDOW) % WINDOW;
  }

  private long nanosAt(int i) {
    return nanos[indexOf(i)];
  }

  private void refit() {
    baseTicks = ticks[indexOf(0)];
    baseNanos = nanos[indexOf(0)];
    firstTick = baseTicks;
    lastTick = ticks[indexOf(count - 1)];
    double meanX = 0;
    double meanY = 0;
    for (int i = 0; i < count; i++) {
      meanX += ticks[indexOf(i)] - baseTicks;
      meanY += nanos[indexOf(i)] - baseNanos;
    }
    meanX /= count;
    meanY /= count;
    double sxx = 0;
    double sxy = 0;
    for (int i = 0; i < count; i++) {
      double x = ticks[indexOf(i)] - baseTicks - meanX;
      sxx += x * x;
      sxy += x * (nanos[indexOf(i)] - baseNanos - meanY);
    }
    if (count < 2 || sxx <= 0) {
      fits = false;
      return;
    }
    slope = sxy / sxx;
    // Re-express the line through the oldest pair's tick: nanos(baseTicks) = meanY - slope * meanX.
    baseNanos += Math.round(meanY - slope * meanX);
    double worst = 0;
    for (int i = 0; i < count; i++) {
      double fitted = baseNanos + slope * (ticks[indexOf(i)] - baseTicks);
      worst = Math.max(worst, Math.abs(nanos[indexOf(i)] - fitted));
    }
    maxResidual = (long) Math.ceil(worst);
    fits = count >= MIN_PAIRS && slope > 0 && worst <= MAX_RESIDUAL_NANOS;
  }
}
