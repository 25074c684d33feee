package io.spanflight.internal.jfr;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import jdk.jfr.EventType;
import jdk.jfr.FlightRecorder;

/**
 * Follows the settings JFR actually applies to our event types. JFR writes a
 * {@code jdk.ActiveSetting} event for every setting of every event type at the start of each
 * chunk, that is when any recording starts, stops or is dumped, with the value in force for the
 * whole JVM: the union over all running recordings (smallest period and threshold, highest
 * throttle). Each of our sources keeps the history of its own setting ({@link
 * JfrSource#inForce}), which the join reads at each sample's time.
 *
 * <p>Runs on the JFR consumer thread.
 *
 * <p>Not API: internal to Spanflight.
 */
final class EffectiveSettings {
  static final String ACTIVE_SETTING = "jdk.ActiveSetting";

  private final Map<Long, List<JfrSource>> byTypeId = new HashMap<>();

  EffectiveSettings(List<JfrSource> sources) {
    Map<String, Long> ids = new HashMap<>();
    for (EventType type : FlightRecorder.getFlightRecorder().getEventTypes()) {
      ids.put(type.getName(), type.getId());
    }
    for (JfrSource source : sources) {
      Long id = ids.get(source.eventName);
      if (id != null) {
        byTypeId.computeIfAbsent(id, k -> new ArrayList<>()).add(source);
      }
    }
  }

  /**
   * One {@code jdk.ActiveSetting} event: setting {@code name} of event type {@code eventTypeId} is
   * {@code value} from tick {@code startTicks} on.
   */
  void onActiveSetting(long eventTypeId, String name, long startTicks, String value) {
    List<JfrSource> sources = byTypeId.get(eventTypeId);
    if (sources == null) {
      return;
    }
    for (JfrSource source : sources) {
      if (source.setting.equals(name)) {
        source.inForce.set(startTicks, value);
      }
    }
  }
}
