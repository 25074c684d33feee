package io.spanflight.internal.profile;

import io.spanflight.internal.registry.ContextRecord;
import java.util.List;
import jdk.jfr.consumer.RecordedFrame;

/**
 * Collects samples into the current {@link ProfileInterval} (JFR consumer thread) and hands the
 * finished interval over at each export tick (export thread).
 *
 * <p>Not API: internal to Spanflight.
 */
public final class ProfileCollector {
  private final long cpuPeriodNanos;
  private ProfileInterval current;

  public ProfileCollector(long cpuPeriodNanos) {
    this.cpuPeriodNanos = cpuPeriodNanos;
    this.current = new ProfileInterval(EpochClock.nowNanos(), cpuPeriodNanos);
  }

  public synchronized void addCpuSample(List<RecordedFrame> frames, ContextRecord link, long epochNanos) {
    current.addCpuSample(frames, link, epochNanos);
  }

  /** Returns the interval collected so far and starts a new one. */
  public synchronized ProfileInterval takeInterval() {
    ProfileInterval finished = current;
    current = new ProfileInterval(EpochClock.nowNanos(), cpuPeriodNanos);
    return finished;
  }
}
