package io.spanflight.internal.jfr;

import io.spanflight.internal.jfr.clock.CalibrationEvent;
import java.util.Map;
import jdk.jfr.EventType;
import jdk.jfr.Recording;

/**
 * Tells our recording from every other one (the user's, {@code jcmd}'s, JMC's) in tests: ours is
 * the one with a setting of our {@link CalibrationEvent}, whatever its name.
 */
final class OurRecording {
  private OurRecording() {}

  /** Whether {@code recording} has a setting of our calibration event (keyed by id or name). */
  static boolean isOurs(Recording recording) {
    initialized(CalibrationEvent.class);
    Map<String, String> settings = recording.getSettings();
    return settings.containsKey(EventType.getEventType(CalibrationEvent.class).getId() + "#enabled")
        || settings.containsKey(CalibrationEvent.NAME + "#enabled");
  }

  /**
   * Initializes the event class first, outside JFR's locks: its static initializer registers it
   * with JFR (taking JFR's metadata lock), while {@code EventType.getEventType} holds that lock and
   * waits for the initialization. With Spanflight's JFR thread initializing the class at that moment,
   * the two waited on each other for good (CI, 2026-11-27: StreamUseTest hung).
   */
  private static void initialized(Class<?> eventClass) {
    try {
      Class.forName(eventClass.getName(), true, eventClass.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(e);
    }
  }
}
