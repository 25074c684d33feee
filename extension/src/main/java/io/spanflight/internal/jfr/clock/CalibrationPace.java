package io.spanflight.internal.jfr.clock;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * When a run commits a {@link CalibrationEvent}: once a second at the start of the run, until the
 * stream has delivered {@value #CALIBRATIONS} of them; then one every 10 s, or sooner when the
 * clock map says samples that far past the newest calibration would no longer map within the
 * join tolerance (a map fitted to a few seconds of points, one of them slow, holds for a few
 * seconds only). Asked once a second by the run's housekeeping thread.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class CalibrationPace {
  /**
   * Calibration events committed once a second at the start of a run, until the stream has
   * delivered this many: the clock map needs three before samples join.
   */
  static final int CALIBRATIONS = 5;

  /**
   * After the first {@link #CALIBRATIONS}, one calibration event at least this often: the clock
   * map is a line fitted to them, and its slope is only as good as the span of time they cover.
   * One small event (a timestamp and a long) per 10 s in our recording, and in any other recording
   * that enables our event type.
   */
  static final long TRICKLE_NANOS = TimeUnit.SECONDS.toNanos(10);

  private final LongSupplier delivered;
  private final LongSupplier trustedAhead;
  private final Runnable commit;
  private final long deliveredAtStart;
  private long lastCommit; // housekeeping thread

  /**
   * @param delivered the calibration events the stream has delivered so far (all runs together)
   * @param trustedAhead how long past the newest delivered calibration samples still map within
   *     the tolerance, in nanoseconds ({@code JoinCounts.trustedAheadNanos()}); the next
   *     calibration is committed by half of that
   * @param commit commits one calibration event
   */
  public CalibrationPace(LongSupplier delivered, LongSupplier trustedAhead, Runnable commit) {
    this.delivered = delivered;
    this.trustedAhead = trustedAhead;
    this.commit = commit;
    this.deliveredAtStart = delivered.getAsLong();
  }

  /** Commits a calibration event if one is due at {@code now} (nanoTime clock). */
  public void commitIfDue(long now) {
    long due = Math.min(TRICKLE_NANOS, trustedAhead.getAsLong() / 2);
    if (delivered.getAsLong() - deliveredAtStart < CALIBRATIONS || now - lastCommit >= due) {
      commit.run();
      lastCommit = now;
    }
  }
}
