package io.spanflight.internal.jfr.clock;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A JFR event that carries {@link System#nanoTime()} read right after its own start time was
 * taken, so the stream can map JFR's tick timestamps onto the clock the timelines use.
 *
 * <p>Not API: internal to Spanflight.
 */
@Name(CalibrationEvent.NAME)
@Label("Spanflight Clock Calibration")
@Category("Spanflight")
@Description("Maps JFR timestamps to System.nanoTime() for joining samples with span timelines")
@StackTrace(false)
public final class CalibrationEvent extends Event {
  public static final String NAME = "io.spanflight.ClockCalibration";

  @Label("System.nanoTime()")
  long nanoTime;

  /** Commits one calibration event from the calling thread. */
  public static void commitNow() {
    CalibrationEvent event = new CalibrationEvent();
    event.begin();
    event.nanoTime = System.nanoTime();
    event.commit();
  }
}
