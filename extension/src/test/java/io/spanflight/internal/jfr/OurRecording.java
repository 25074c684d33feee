package io.spanflight.internal.jfr;

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
    Map<String, String> settings = recording.getSettings();
    return settings.containsKey(EventType.getEventType(CalibrationEvent.class).getId() + "#enabled")
        || settings.containsKey(CalibrationEvent.NAME + "#enabled");
  }
}
