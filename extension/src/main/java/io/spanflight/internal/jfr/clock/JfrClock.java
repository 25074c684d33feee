package io.spanflight.internal.jfr.clock;

import io.spanflight.internal.correlate.SampleClock;
import java.util.logging.Logger;
import jdk.jfr.consumer.RecordedEvent;

/**
 * Maps JFR tick timestamps ({@code getLong("startTime")}) to {@link System#nanoTime()} by a line
 * fitted to the {@link CalibrationEvent}s (see {@link ClockFit}), fitted again on each one.
 *
 * <p>On HotSpot on Linux the ticks are {@code System.nanoTime()} minus a constant, and the line has
 * slope 1; elsewhere the ticks may run at another frequency (the Windows performance counter,
 * commonly 10 MHz) or on the CPU's time-stamp counter. Each calibration's nanoTime is read a few
 * nanoseconds after its ticks (microseconds when the thread is preempted there): those delays are
 * the residuals. A sample maps only where the fit's error bound is within {@link
 * #JOIN_TOLERANCE_NANOS}; elsewhere the join marks it unknown. The first time the residuals exceed
 * the tolerance, one warning says so.
 *
 * <p>Runs on the JFR consumer thread only. Not API: internal to Spanflight.
 */
public final class JfrClock implements SampleClock {
  /**
   * The largest mapping error a join accepts: a tenth of a millisecond, well below the
   * millisecond-scale spans the join is asked to tell apart.
   */
  public static final long JOIN_TOLERANCE_NANOS = 100_000;

  private static final Logger logger = Logger.getLogger(JfrClock.class.getName());

  private final ClockFit fit;
  private boolean warned;
  private long outOfTolerance;

  public JfrClock() {
    this(JOIN_TOLERANCE_NANOS);
  }

  JfrClock(long toleranceNanos) {
    this.fit = new ClockFit(toleranceNanos);
  }

  /** Feeds one calibration event. */
  public void calibrate(RecordedEvent calibration) {
    calibrate(calibration.getLong("startTime"), calibration.getLong("nanoTime"));
  }

  /** Feeds one calibration point: JFR ticks and the nanoTime read right after them. */
  public void calibrate(long ticks, long nanoTime) {
    fit.add(ticks, nanoTime);
    if (fit.ready() && !fit.residualsWithinTolerance()) {
      outOfTolerance++;
      if (!warned) {
        warned = true;
        logger.warning(
            "Spanflight: JFR timestamps do not map onto System.nanoTime() within "
                + JOIN_TOLERANCE_NANOS / 1000
                + " µs (slope "
                + fit.slope()
                + ", calibration points off the fitted line); samples are counted as unknown-clock"
                + " instead of linked until the fit is within tolerance again");
      }
    }
  }

  /** Enough calibrations to map ticks (whether a given tick maps: {@link #trusted(long)}). */
  public boolean calibrated() {
    return fit.ready();
  }

  /** Whether the newest calibration left the fit outside the tolerance (then recalibrate soon). */
  public boolean lastCalibrationOffLine() {
    return fit.ready() && !fit.residualsWithinTolerance();
  }

  /** Whether a sample at {@code ticks} maps within the join tolerance. */
  @Override
  public boolean trusted(long ticks) {
    return fit.trusted(ticks);
  }

  /**
   * How far past the newest calibration, in nanoseconds, samples still map within the tolerance:
   * the next calibration is due before then (0 before the map is ready or while it is off line).
   */
  public long trustedAheadNanos() {
    return fit.ready() ? fit.trustedAheadNanos() : 0;
  }

  /** The event's start on the {@link System#nanoTime()} clock. Only once {@link #calibrated()}. */
  public long startNanoTime(RecordedEvent event) {
    return toNanoTime(event.getLong("startTime"));
  }

  /** Ticks on the {@link System#nanoTime()} clock. Only once {@link #calibrated()}. */
  @Override
  public long toNanoTime(long ticks) {
    return fit.toNanos(ticks);
  }

  /** The largest residual of the calibration points within tolerance, in nanoseconds. */
  public long maxResidualNanos() {
    return fit.maxInlierResidual();
  }

  /** Calibrations after which the fit was outside the tolerance, since startup. */
  public long outOfTolerance() {
    return outOfTolerance;
  }
}
