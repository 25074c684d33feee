package io.spanflight.internal.correlate;

import io.spanflight.internal.profile.SampleType;
import io.spanflight.internal.registry.ContextRecord;
import java.util.ArrayList;
import java.util.List;

/** For join tests without JFR: a sink that keeps what the join let through, and plain clocks. */
final class JoinedSamples implements TimelineJoin.Sink {
  /** Ticks are nanoTime, trusted everywhere. */
  static final SampleClock SAME_CLOCK = clockTrustedFrom(Long.MIN_VALUE);

  /** One sample that reached the sink: its stack and the context it left with (null: none). */
  static final class Joined {
    final int stack;
    final ContextRecord link;

    Joined(int stack, ContextRecord link) {
      this.stack = stack;
      this.link = link;
    }
  }

  final List<Joined> joined = new ArrayList<>();

  @Override
  public void add(SampleType type, int leaf, int stack, ContextRecord link, long epochNanos, long value) {
    joined.add(new Joined(stack, link));
  }

  /** Ticks are nanoTime, trusted from {@code firstTrusted} on (before: the map cannot vouch). */
  static SampleClock clockTrustedFrom(long firstTrusted) {
    return new SampleClock() {
      @Override
      public boolean trusted(long ticks) {
        return ticks >= firstTrusted;
      }

      @Override
      public long toNanoTime(long ticks) {
        return ticks;
      }
    };
  }
}
