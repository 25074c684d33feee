package io.spanflight.internal.jfr;

import io.spanflight.internal.profile.EpochClock;
import io.spanflight.internal.profile.ProfileCollector;
import io.spanflight.internal.profile.SampleType;
import java.util.HashMap;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedMethod;

/**
 * {@code jdk.MethodTiming} (JDK 25) reports, per timed method and period, the invocations and
 * average time since the recording started: cumulative figures. This turns each event into the
 * increase since the previous one, so an interval's profile holds that interval's time and calls.
 * The events carry no thread or stack, so these samples have no span link.
 *
 * <p>Not API: internal to Spanflight.
 */
final class MethodTimingDeltas {
  static final SampleType TIME = SampleType.nanoseconds("method_time");
  static final SampleType CALLS = SampleType.invocations("method_invocations");

  /** Per method: {invocations, total nanoseconds} as of the previous event. */
  private final Map<String, long[]> previous = new HashMap<>();
  private final ProfileCollector collector;

  MethodTimingDeltas(ProfileCollector collector) {
    this.collector = collector;
  }

  void onEvent(RecordedEvent event) {
    RecordedMethod method = event.getValue("method");
    long invocations = event.getLong("invocations");
    if (method == null || invocations <= 0) {
      return; // nothing to add; the average of a method not called yet is no number (overflows)
    }
    long average = averageNanos(event);
    if (average < 0) {
      return; // the JDK leaves the average out when its clock is too coarse
    }
    String key = method.getType().getName() + '.' + method.getName() + method.getDescriptor();
    long total = average * invocations;
    long[] before = previous.getOrDefault(key, new long[2]);
    long calls = invocations - before[0];
    long time = total - before[1];
    previous.put(key, new long[] {invocations, total});
    if (calls > 0) {
      long when = EpochClock.toNanos(event.getStartTime());
      collector.addMethod(CALLS, method, when, calls);
      collector.addMethod(TIME, method, when, Math.max(0, time));
    }
  }

  /** The event's average in nanoseconds, or -1 when it is out of range. */
  private static long averageNanos(RecordedEvent event) {
    try {
      return event.getDuration("average").toNanos();
    } catch (ArithmeticException e) {
      return -1;
    }
  }
}
