package io.spanflight.internal.profile;

import java.util.Objects;

/**
 * What the values of one profile mean: the OTLP {@code sample_type} and, for sampled signals,
 * the {@code period_type} and {@code period}. One profile is exported per sample type.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class SampleType {
  final String type;
  final String unit;
  final String periodType;
  final String periodUnit;
  final long period;

  private SampleType(String type, String unit, String periodType, String periodUnit, long period) {
    this.type = type;
    this.unit = unit;
    this.periodType = periodType;
    this.periodUnit = periodUnit;
    this.period = period;
  }

  /** JFR execution samples: one count per sample, each standing for {@code periodNanos} of CPU. */
  public static SampleType cpuSamples(long periodNanos) {
    return new SampleType("samples", "count", "cpu", "nanoseconds", periodNanos);
  }

  /** CPU-time samples (JDK 25): the CPU time each sample stands for, in nanoseconds. */
  public static SampleType cpuTime(long periodNanos) {
    return new SampleType("cpu", "nanoseconds", "cpu", "nanoseconds", periodNanos);
  }

  /** Samples of threads in native code: one count per sample, wall-clock period. */
  public static SampleType nativeSamples(long periodNanos) {
    return new SampleType("native_samples", "count", "wall", "nanoseconds", periodNanos);
  }

  /** Bytes allocated, weighted by the allocation sampler. */
  public static SampleType allocatedBytes() {
    return new SampleType("alloc_space", "bytes", "", "", 0);
  }

  /** How often something happened, such as method invocations. */
  public static SampleType invocations(String type) {
    return new SampleType(type, "count", "", "", 0);
  }

  /** Time spent blocked or in a traced method, such as {@code lock_contention}, in nanoseconds. */
  public static SampleType nanoseconds(String type) {
    return new SampleType(type, "nanoseconds", "", "", 0);
  }

  public String type() {
    return type;
  }

  /** The sampling period in {@code periodUnit}, 0 for unsampled signals. */
  public long period() {
    return period;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof SampleType)) {
      return false;
    }
    SampleType other = (SampleType) o;
    return type.equals(other.type)
        && unit.equals(other.unit)
        && periodType.equals(other.periodType)
        && periodUnit.equals(other.periodUnit)
        && period == other.period;
  }

  @Override
  public int hashCode() {
    return Objects.hash(type, unit, periodType, periodUnit, period);
  }

  @Override
  public String toString() {
    return type + "/" + unit;
  }
}
