package io.spanflight.internal.jfr;

import java.util.Map;
import jdk.jfr.EventType;
import jdk.jfr.FlightRecorder;
import jdk.jfr.FlightRecorderListener;
import jdk.jfr.Recording;
import jdk.jfr.RecordingState;

/**
 * Tells our recording from every other one (the user's, {@code jcmd}'s, JMC's): ours is the one with
 * a setting of our {@link CalibrationEvent}. Watches that it runs, so that the stream notices when
 * someone else stopped or closed it (JMC lists it like any other) and opens a new one.
 *
 * <p>Not API: internal to Spanflight.
 */
final class OurRecording {
  /**
   * True while our stream runs and its recording can be told from others; cleared when we find
   * our recording closed by someone else.
   */
  private volatile boolean running;

  /**
   * Marks our stream running as soon as JFR reports our recording running (called on the thread
   * that changed its state), so that someone closing it even before its first flush is noticed.
   */
  private final FlightRecorderListener startWatch =
      new FlightRecorderListener() {
        @Override
        public void recordingStateChanged(Recording recording) {
          if (recording.getState() == RecordingState.RUNNING && isOurs(recording)) {
            running = true;
          }
        }
      };

  /** Runs the stream's blocking {@code start}, watching for our recording to run meanwhile. */
  void watchWhile(Runnable start) {
    FlightRecorder.addListener(startWatch);
    try {
      start.run();
    } finally {
      FlightRecorder.removeListener(startWatch);
      running = false;
    }
  }

  /** On the stream's first flush, when our recording is known to run. */
  void firstFlush() {
    if (!running) { // the start watch did not see it (only watch where we can tell ours)
      running = runs();
    }
  }

  /** Whether our stream runs and its recording can be told from others. */
  boolean running() {
    return running;
  }

  /** True (and no longer running) when our recording no longer runs: someone else ended it. */
  boolean endedBySomeoneElse() {
    if (!runs()) {
      running = false;
      return true;
    }
    return false;
  }

  /** Our recording is the running one with a setting of our calibration event (keyed by id or name). */
  private static boolean runs() {
    for (Recording recording : FlightRecorder.getFlightRecorder().getRecordings()) {
      if (recording.getState() == RecordingState.RUNNING && isOurs(recording)) {
        return true;
      }
    }
    return false;
  }

  static boolean isOurs(Recording recording) {
    Map<String, String> settings = recording.getSettings();
    return settings.containsKey(EventType.getEventType(CalibrationEvent.class).getId() + "#enabled")
        || settings.containsKey(CalibrationEvent.NAME + "#enabled");
  }
}
