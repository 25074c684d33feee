package io.spanflight.internal.jfr;

import io.spanflight.internal.profile.SampleType;
import java.util.function.ToLongFunction;
import jdk.jfr.consumer.RecordedEvent;

/**
 * One JFR event type and how its events become samples: which thread field to join on (the
 * sampled thread for sample events, the event thread for duration events), the sample type of the
 * profile it feeds, the value of each sample, and the JFR setting that enables it at our rate.
 *
 * <p>Not API: internal to Spanflight.
 */
final class JfrSource {
  static final String SAMPLED_THREAD = "sampledThread";
  static final String EVENT_THREAD = "eventThread";

  /** The configured source this event belongs to ({@code cpu}, {@code lock}, ...). */
  final String sourceName;
  final String eventName;
  final String threadField;
  final SampleType type;
  final ToLongFunction<RecordedEvent> value;
  final String setting;
  final String settingValue;
  /** A method field to show as the leaf frame (MethodTrace stacks start at the caller), or null. */
  final String leafMethodField;

  JfrSource(
      String sourceName,
      String eventName,
      String threadField,
      SampleType type,
      ToLongFunction<RecordedEvent> value,
      String setting,
      String settingValue,
      String leafMethodField) {
    this.sourceName = sourceName;
    this.eventName = eventName;
    this.threadField = threadField;
    this.type = type;
    this.value = value;
    this.setting = setting;
    this.settingValue = settingValue;
    this.leafMethodField = leafMethodField;
  }

  /** The event's duration in nanoseconds: what blocking and traced events weigh. */
  static long duration(RecordedEvent event) {
    return event.getDuration().toNanos();
  }

  @Override
  public String toString() {
    return eventName + "(" + setting + "=" + settingValue + ") -> " + type;
  }
}
