package io.spanflight.internal.jfr;

import io.spanflight.internal.capture.SpanScopeEvent;
import io.spanflight.internal.jfr.clock.CalibrationEvent;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import jdk.jfr.Event;
import jdk.jfr.EventSettings;

/**
 * The event types our recording enables, and how: each enabled source's event at its setting with
 * stack traces ({@code jdk.CPUTimeSample} with {@code jdk.CPUTimeSamplesLost}, the samples it
 * lost), {@code jdk.ActiveSetting} (the settings in force), the calibration event without
 * stacks, and, when asked for, the span scope events above their threshold. The same way in our
 * recording (a plain {@code Recording}) and in the {@code RecordingStream} of the diagnostic mode
 * stream-only.
 *
 * <p>Not API: internal to Spanflight.
 */
final class OurEvents {
  private OurEvents() {}

  /**
   * @param byName enables an event type by name ({@code enable(String)})
   * @param byClass enables an event class ({@code enable(Class)})
   * @param scopeEventThreshold the threshold of span scope events, or null for none
   */
  static void enable(
      Function<String, EventSettings> byName,
      Function<Class<? extends Event>, EventSettings> byClass,
      List<JfrSource> enabled,
      Duration scopeEventThreshold) {
    byName.apply(EffectiveSettings.ACTIVE_SETTING);
    for (JfrSource source : enabled) {
      byName.apply(source.eventName).with(source.setting, source.settingValue).withStackTrace();
      if (source.eventName.equals(JfrSources.METHOD_TIMING)) {
        // cumulative figures, turned into per-interval deltas; once a second keeps them fresh
        byName.apply(source.eventName).withPeriod(Duration.ofSeconds(1));
      }
    }
    if (JfrSources.losingSamples(enabled) != null) {
      byName.apply(JfrSources.CPU_TIME_SAMPLES_LOST); // so that a loss is said, not silent
    }
    if (scopeEventThreshold != null) {
      byClass.apply(SpanScopeEvent.class).withThreshold(scopeEventThreshold);
    }
    byClass.apply(CalibrationEvent.class).withoutStackTrace();
  }
}
