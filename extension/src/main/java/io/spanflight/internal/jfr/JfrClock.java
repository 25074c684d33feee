package io.spanflight.internal.jfr;

import jdk.jfr.consumer.RecordedEvent;

/**
 * Maps JFR tick timestamps ({@code getLong("startTime")}) to {@link System#nanoTime()}.
 *
 * <p>On Linux, JFR ticks are {@code System.nanoTime()} minus a constant fixed at JVM start. Each
 * {@link CalibrationEvent} gives {@code nanoTime - ticks} plus the few nanoseconds between
 * taking its start time and reading {@code nanoTime}; the smallest observed difference is the
 * best estimate of the constant. Error: the delay inside one {@code commitNow()} call, measured
 * by the tests (tens of nanoseconds, microseconds when the thread is preempted there).
 *
 * <p>Not API: internal to Spanflight.
 */
public final class JfrClock {
  private volatile long offset = Long.MAX_VALUE;

  /** Feeds one calibration event. */
  public void calibrate(RecordedEvent calibration) {
    long candidate = calibration.getLong("nanoTime") - calibration.getLong("startTime");
    if (candidate < offset) {
      offset = candidate;
    }
  }

  public boolean calibrated() {
    return offset != Long.MAX_VALUE;
  }

  /** The event's start on the {@link System#nanoTime()} clock. Only once {@link #calibrated()}. */
  public long startNanoTime(RecordedEvent event) {
    return event.getLong("startTime") + offset;
  }
}
