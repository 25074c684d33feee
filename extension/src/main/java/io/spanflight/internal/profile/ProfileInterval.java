package io.spanflight.internal.profile;

import io.spanflight.internal.registry.ContextRecord;
import java.util.List;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;

/**
 * Everything sampled during one export interval: the shared dictionary and the CPU samples, ready
 * to be encoded as one {@code ExportProfilesServiceRequest}. Used by one thread at a time (the
 * {@link ProfileCollector} hands it over).
 *
 * <p>Not API: internal to Spanflight.
 */
public final class ProfileInterval {
  final DictionaryBuilder dictionary = new DictionaryBuilder();
  final CpuSamples cpu = new CpuSamples();
  final long startEpochNanos;
  final long cpuPeriodNanos;

  ProfileInterval(long startEpochNanos, long cpuPeriodNanos) {
    this.startEpochNanos = startEpochNanos;
    this.cpuPeriodNanos = cpuPeriodNanos;
  }

  /**
   * Adds one CPU sample.
   *
   * @param frames JFR frames, top of stack (leaf) first
   * @param link the span the sample belongs to, or null
   * @param epochNanos when the sample was taken, in nanoseconds since the epoch
   */
  void addCpuSample(List<RecordedFrame> frames, ContextRecord link, long epochNanos) {
    int[] locations = new int[frames.size()];
    int n = 0;
    for (RecordedFrame frame : frames) {
      RecordedMethod method = frame.getMethod();
      if (method == null) {
        continue;
      }
      int function =
          dictionary.function(method.getType().getName(), method.getName(), method.getDescriptor());
      locations[n++] = dictionary.location(function, Math.max(0, frame.getLineNumber()));
    }
    int stack = dictionary.stack(n == locations.length ? locations : java.util.Arrays.copyOf(locations, n));
    cpu.add(stack, dictionary.link(link), epochNanos);
  }

  public int sampleCount() {
    return cpu.total();
  }

  /** Samples in this interval that carry a link to a span. */
  public int linkedSampleCount() {
    int linked = 0;
    for (CpuSamples.Group group : cpu.groups()) {
      if (group.link != 0) {
        linked += group.count;
      }
    }
    return linked;
  }
}
