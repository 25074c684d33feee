package io.spanflight.internal.jfr.clock;

import java.util.Arrays;

/**
 * A line {@code nanoTime = offset + slope * ticks} fitted to the most recent calibration points
 * (JFR ticks, {@link System#nanoTime()} read right after), and how far it can be trusted.
 *
 * <p>Each point's nanoTime is read a little after its ticks, never before, so the points lie on
 * or above the true line: the slope is the median of the pairwise slopes (Theil-Sen: one delayed
 * point among several does not tilt it), the offset puts the line under the lowest point, and a
 * point's residual is its height above the line. Points more than the tolerance above the line
 * are outliers: a calibration that was preempted, or a clock that does not follow a line. Slope 1
 * (ticks are nanoTime minus a constant, as on HotSpot on Linux) is kept while it fits about as
 * well as the median slope: it is exact there, where a slope fitted to points a second apart is
 * off by their delays divided by a second.
 *
 * <p>The error bound at a tick is the largest residual of the inliers {@code u}, plus what a slope
 * off by up to {@code 2u / span} adds at that distance outside the points' span: {@code u (1 + 2
 * d / span)}. The fit is trusted where that bound is within the tolerance, while most points and
 * the newest one are inliers.
 *
 * <p>Why not the bridge's {@code TickClockMap}, which also fits a line to clock pairs (TSC ticks of
 * the native rings onto nanoTime): there both readings of a pair are taken back-to-back with a
 * measured uncertainty, so a least-squares line through symmetric noise is right, and ring entries
 * only need interpolation between pairs. Here the delay after JFR's tick is one-sided and unbounded
 * (a preempted calibration is off by milliseconds), so least squares would be tilted by it; and
 * samples come after the newest point, so the fit must extrapolate and say how far it can be
 * trusted. The two fits answer different error models; sharing one would change the accuracy of
 * both.
 *
 * <p>Not API: internal to Spanflight.
 */
final class ClockFit {
  /** Points kept: with one calibration every 10 s after the first few, about five minutes. */
  static final int WINDOW = 32;
  /** Slope 1 is kept while its residuals are at most twice the fitted slope's plus this. */
  static final double UNIT_SLOPE_SLACK_NANOS = 1_000;

  private final long toleranceNanos;
  private final long[] ticks = new long[WINDOW];
  private final long[] nanos = new long[WINDOW];
  private int count;
  private int next;

  // The fit, relative to (refTicks, refNanos) so that doubles keep nanosecond precision.
  private long refTicks;
  private long refNanos;
  private double slope;
  private double offset;
  private double maxInlierResidual;
  private int inliers;
  private boolean newestInlier;
  private long firstTicks;
  private long lastTicks;

  ClockFit(long toleranceNanos) {
    this.toleranceNanos = toleranceNanos;
  }

  /** Adds a point and fits again. */
  void add(long pointTicks, long pointNanos) {
    ticks[next] = pointTicks;
    nanos[next] = pointNanos;
    int newest = next;
    next = (next + 1) % WINDOW;
    count = Math.min(count + 1, WINDOW);
    refTicks = pointTicks;
    refNanos = pointNanos;
    double fitted = medianPairSlope();
    // Where ticks are nanoTime minus a constant (HotSpot on Linux), slope 1 fits as well as the
    // fitted slope, and is exact: prefer it while it does.
    fitTo(1.0, newest);
    int unitInliers = inliers;
    double unitResidual = maxInlierResidual;
    fitTo(fitted, newest);
    if (unitInliers >= inliers && unitResidual <= 2 * maxInlierResidual + UNIT_SLOPE_SLACK_NANOS) {
      fitTo(1.0, newest);
    }
  }

  private void fitTo(double candidate, int newest) {
    slope = candidate;
    offset = Double.MAX_VALUE;
    for (int i = 0; i < count; i++) {
      offset = Math.min(offset, height(i));
    }
    inliers = 0;
    maxInlierResidual = 0;
    firstTicks = Long.MAX_VALUE;
    lastTicks = Long.MIN_VALUE;
    for (int i = 0; i < count; i++) {
      double residual = height(i) - offset;
      if (residual <= toleranceNanos) {
        inliers++;
        maxInlierResidual = Math.max(maxInlierResidual, residual);
      }
      firstTicks = Math.min(firstTicks, ticks[i]);
      lastTicks = Math.max(lastTicks, ticks[i]);
    }
    newestInlier = height(newest) - offset <= toleranceNanos;
  }

  /** The point's nanoTime minus the line's slope part, relative to the reference point. */
  private double height(int i) {
    return (double) (nanos[i] - refNanos) - slope * (double) (ticks[i] - refTicks);
  }

  private double medianPairSlope() {
    if (count < 2) {
      return 1.0;
    }
    double[] slopes = new double[count * (count - 1) / 2];
    int n = 0;
    for (int i = 0; i < count; i++) {
      for (int j = i + 1; j < count; j++) {
        long dt = ticks[j] - ticks[i];
        if (dt != 0) {
          slopes[n++] = (double) (nanos[j] - nanos[i]) / dt;
        }
      }
    }
    if (n == 0) {
      return 1.0;
    }
    Arrays.sort(slopes, 0, n);
    return n % 2 == 1 ? slopes[n / 2] : (slopes[n / 2 - 1] + slopes[n / 2]) / 2;
  }

  /** Enough points to map ticks (three: with two, residuals say nothing). */
  boolean ready() {
    return count >= 3;
  }

  int points() {
    return count;
  }

  /** Most points and the newest lie within the tolerance of the line. */
  boolean residualsWithinTolerance() {
    return ready() && newestInlier && inliers * 2 > count;
  }

  /** The largest residual among the points within the tolerance, in nanoseconds. */
  long maxInlierResidual() {
    return (long) Math.ceil(maxInlierResidual);
  }

  /** The tick on the nanoTime clock. Only once {@link #ready()}. */
  long toNanos(long atTicks) {
    return refNanos + Math.round(offset + slope * (double) (atTicks - refTicks));
  }

  /** The bound on the mapping error at {@code atTicks}, in nanoseconds (see the class comment). */
  double errorBound(long atTicks) {
    double span = Math.max(1.0, slope * (double) (lastTicks - firstTicks));
    double outside =
        atTicks > lastTicks ? slope * (double) (atTicks - lastTicks)
            : atTicks < firstTicks ? slope * (double) (firstTicks - atTicks) : 0.0;
    return maxInlierResidual * (1.0 + 2.0 * outside / span);
  }

  /**
   * How far past its newest point, in nanoseconds, the fit still maps within the tolerance: where
   * {@code u (1 + 2 d / span)} reaches it. 0 where it maps nowhere, Long.MAX_VALUE when its points
   * lie exactly on the line. A calibration due within this keeps the next samples mappable.
   */
  long trustedAheadNanos() {
    if (!residualsWithinTolerance()) {
      return 0;
    }
    if (maxInlierResidual <= 0) {
      return Long.MAX_VALUE;
    }
    double span = Math.max(1.0, slope * (double) (lastTicks - firstTicks));
    double ahead = span * (toleranceNanos / maxInlierResidual - 1.0) / 2.0;
    return ahead >= (double) Long.MAX_VALUE ? Long.MAX_VALUE : (long) ahead;
  }

  /** Whether a sample at {@code atTicks} maps within the tolerance. */
  boolean trusted(long atTicks) {
    return residualsWithinTolerance() && errorBound(atTicks) <= toleranceNanos;
  }

  double slope() {
    return slope;
  }
}
