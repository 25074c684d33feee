package io.spanflight.internal.jfr;

import static io.spanflight.internal.jfr.JfrSource.EVENT_THREAD;
import static io.spanflight.internal.jfr.JfrSource.SAMPLED_THREAD;

import io.spanflight.internal.config.SourceSettings;
import io.spanflight.internal.profile.SampleType;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.LongFunction;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import jdk.jfr.EventType;
import jdk.jfr.FlightRecorder;

/**
 * Turns the configured sources into the JFR event types to enable, skipping (with one info line
 * each) the ones this JDK does not have, such as {@code jdk.CPUTimeSample} before JDK 25. With a
 * cap ({@code otel.spanflight.jfr.cap=default}), no setting is denser than the JDK's
 * {@code default.jfc}: see {@link JfcCap}.
 * {@code jdk.MethodTiming} is not here: it carries no thread or stack and is handled by
 * {@link MethodTimingDeltas}.
 *
 * <p>Not API: internal to Spanflight.
 */
final class JfrSources {
  static final String METHOD_TIMING = "jdk.MethodTiming";
  static final String CPU_TIME_SAMPLE = "jdk.CPUTimeSample";
  /** What the CPU-time sampler says when it lost samples (field {@code lostSamples}). */
  static final String CPU_TIME_SAMPLES_LOST = "jdk.CPUTimeSamplesLost";
  /** The field blocking and traced events weigh: their duration. */
  static final String DURATION = "duration";
  private static final Logger logger = Logger.getLogger("io.spanflight");

  private JfrSources() {}

  /** The event sources to enable for {@code settings}, among the event types this JDK knows. */
  static List<JfrSource> of(List<SourceSettings> settings, Set<String> available) {
    return of(settings, available, JfcCap.NONE);
  }

  /** As {@link #of(List, Set)}, each event's setting limited by {@code cap}. */
  static List<JfrSource> of(List<SourceSettings> settings, Set<String> available, JfcCap cap) {
    List<JfrSource> sources = new ArrayList<>();
    for (SourceSettings s : settings) {
      if (!s.enabled()) {
        continue;
      }
      for (JfrSource configured : sourcesOf(s)) {
        if (!available.contains(configured.eventName)) {
          logger.info(
              "Spanflight: this JDK has no " + configured.eventName + "; source '" + s.name() + "' is skipped");
          continue;
        }
        JfrSource source = cap.apply(configured);
        if (source != null) {
          sources.add(source);
        }
      }
    }
    return sources;
  }

  /** The source whose lost samples {@code jdk.CPUTimeSamplesLost} counts, or null when it is not on. */
  static JfrSource losingSamples(List<JfrSource> sources) {
    return sources.stream().filter(s -> s.eventName.equals(CPU_TIME_SAMPLE)).findFirst().orElse(null);
  }

  /** The event types that this JVM's Flight Recorder knows. */
  static Set<String> availableEventTypes() {
    return FlightRecorder.getFlightRecorder().getEventTypes().stream()
        .map(EventType::getName)
        .collect(Collectors.toSet());
  }

  private static List<JfrSource> sourcesOf(SourceSettings s) {
    String setting = s.setting();
    String value = s.value();
    switch (s.name()) {
      case SourceSettings.CPU:
        return List.of(
            periodic(s, "jdk.ExecutionSample", SAMPLED_THREAD, SampleType::cpuSamples, null, setting, value));
      case SourceSettings.CPU_TIME:
        return List.of(
            periodic(
                s,
                CPU_TIME_SAMPLE,
                EVENT_THREAD,
                SampleType::cpuTime,
                "samplingPeriod", // each sample's own weight
                "throttle",
                value));
      case SourceSettings.NATIVE:
        return List.of(
            periodic(s, "jdk.NativeMethodSample", SAMPLED_THREAD, SampleType::nativeSamples, null, setting, value));
      case SourceSettings.ALLOCATION:
        return List.of(
            new JfrSource(
                s.name(),
                "jdk.ObjectAllocationSample", EVENT_THREAD, SampleType.allocatedBytes(), "weight", setting, value, null));
      case SourceSettings.LOCK:
        return List.of(blocking("jdk.JavaMonitorEnter", "lock_contention", s), blocking("jdk.JavaMonitorWait", "lock_wait", s));
      case SourceSettings.PARK:
        return List.of(blocking("jdk.ThreadPark", "park", s));
      case SourceSettings.SOCKET:
        return List.of(blocking("jdk.SocketRead", "socket_read", s), blocking("jdk.SocketWrite", "socket_write", s));
      case SourceSettings.FILE:
        return List.of(blocking("jdk.FileRead", "file_read", s), blocking("jdk.FileWrite", "file_write", s));
      case SourceSettings.METHOD_TRACE:
        return List.of(
            new JfrSource(
                s.name(),
                "jdk.MethodTrace", EVENT_THREAD, SampleType.nanoseconds("method_trace"), DURATION, setting, value, "method"));
      case SourceSettings.METHOD_TIMING:
        return List.of(new JfrSource(s.name(), METHOD_TIMING, "", SampleType.nanoseconds("method_time"), null, setting, value, null));
      default:
        throw new IllegalArgumentException("unknown source " + s.name());
    }
  }

  private static JfrSource periodic(
      SourceSettings s,
      String event,
      String threadField,
      LongFunction<SampleType> typeForPeriod,
      String value,
      String setting,
      String settingValue) {
    return new JfrSource(
        s.name(), event, threadField, typeForPeriod.apply(s.nanos()), value, setting, settingValue, null, typeForPeriod, 0);
  }

  private static JfrSource blocking(String event, String type, SourceSettings s) {
    return new JfrSource(
        s.name(), event, EVENT_THREAD, SampleType.nanoseconds(type), DURATION, s.setting(), s.value(), null,
        null, s.nanos());
  }
}
