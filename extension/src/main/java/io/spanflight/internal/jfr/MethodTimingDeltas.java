package io.spanflight.internal.jfr;

import io.spanflight.internal.profile.InternedStacks;
import io.spanflight.internal.profile.ProfileCollector;
import io.spanflight.internal.profile.SampleType;
import java.util.HashMap;
import java.util.Map;

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

  /**
   * One event: {@code method} (of {@code methods}, or -1 when it did not resolve) called {@code
   * invocations} times since the recording started, on average {@code averageNanos} (negative
   * when the JDK left it out: its clock was too coarse), reported at {@code epochNanos}.
   */
  void onEvent(InternedStacks methods, int method, long invocations, long averageNanos, long epochNanos) {
    if (method < 0 || invocations <= 0 || averageNanos < 0) {
      return; // nothing to add; the average of a method not called yet is no number (overflows)
    }
    String className = methods.className(method);
    String name = methods.methodName(method);
    String descriptor = methods.methodDescriptor(method);
    String key = className + '.' + name + descriptor;
    long total = saturatedProduct(averageNanos, invocations);
    long[] before = previous.getOrDefault(key, new long[2]);
    long calls = invocations - before[0];
    long time = total - before[1];
    previous.put(key, new long[] {invocations, total});
    // the JDK counts a call before it adds the call's time: an event read between the two has the
    // call without its time, and the next one its time without a new call
    if (calls > 0) {
      collector.addMethod(CALLS, className, name, descriptor, null, null, epochNanos, calls);
    }
    if (time > 0) {
      collector.addMethod(TIME, className, name, descriptor, null, null, epochNanos, time);
    }
  }

  private static long saturatedProduct(long a, long b) {
    long high = Math.multiplyHigh(a, b);
    long low = a * b;
    return high == 0 && low >= 0 ? low : Long.MAX_VALUE;
  }
}
