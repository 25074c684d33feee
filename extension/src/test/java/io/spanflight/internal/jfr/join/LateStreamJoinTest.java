package io.spanflight.internal.jfr.join;

import static org.assertj.core.api.Assertions.assertThat;

import io.spanflight.internal.ScriptedBridge;
import io.spanflight.internal.correlate.Timelines;
import io.spanflight.internal.filter.SampleFilters;
import io.spanflight.internal.jfr.clock.JfrClock;
import io.spanflight.internal.profile.ProfileCollector;
import io.spanflight.internal.registry.ContextRegistry;
import org.junit.jupiter.api.Test;

/**
 * A JFR stream that falls seconds behind (long GC pause, busy machine): housekeeping prunes the
 * timelines every second meanwhile, and the late samples must still find their history.
 */
class LateStreamJoinTest {
  private static final long SECOND = 1_000_000_000L;
  private static final long MARGIN = 3 * SECOND; // SpanflightRun.TIMELINE_HORIZON_NANOS

  private final ScriptedBridge bridge = new ScriptedBridge();
  private final Timelines timelines = new Timelines(bridge);
  private final JfrClock clock = new JfrClock();
  private final SampleJoiner joiner =
      new SampleJoiner(clock, timelines, new ContextRegistry(bridge), new ProfileCollector(), SampleFilters.NONE);

  /** Thread 1 alternates between contexts 11 and 12 every 100 ms for 10 s, from {@code base}. */
  private static void alternate(ScriptedBridge bridge, long base) {
    for (int i = 0; i < 100; i++) {
      long at = base + i * (SECOND / 10);
      int context = i % 2 == 0 ? 11 : 12;
      bridge.then(s -> s.switched(1, at, context));
    }
  }

  private static int expected(long base, long at) {
    return ((at - base) / (SECOND / 10)) % 2 == 0 ? 11 : 12;
  }

  @Test
  void samplesDeliveredSecondsLateStillJoinTheirSpan() {
    long base = System.nanoTime() - 20 * SECOND; // the switches happened 20 s ago ...
    for (int i = 0; i < 3; i++) { // ticks are nanoTime here; calibrated at the start
      clock.calibrate(base + i * SECOND, base + i * SECOND + 50);
    }
    alternate(bridge, base);
    timelines.drain();

    // ... the stream delivered their first 2 s, then fell behind; housekeeping prunes meanwhile
    for (long at = base; at < base + 2 * SECOND; at += SECOND / 20) {
      assertThat(joiner.contextAt(1, at + SECOND / 40)).isEqualTo(expected(base, at + SECOND / 40));
    }
    for (int tick = 0; tick < 5; tick++) {
      timelines.pruneBehind(joiner.watermarkNanos(), MARGIN);
    }

    // now the other 8 s arrive, 10 to 18 s late
    int right = 0;
    int other = 0;
    for (long at = base + 2 * SECOND; at < base + 10 * SECOND; at += SECOND / 20) {
      int context = joiner.contextAt(1, at + SECOND / 40);
      if (context == expected(base, at + SECOND / 40)) {
        right++;
      } else {
        other++;
      }
      timelines.pruneBehind(joiner.watermarkNanos(), MARGIN); // the watermark moves with them
    }
    assertThat(other).as("late samples not joined to their span").isZero();
    assertThat(right).isEqualTo(160);
    assertThat(joiner.counts().unknownTimeline()).isZero();
  }

  @Test
  void pruningByTheWallClockWouldHaveLostThem() {
    // The same history pruned the way it was before (now minus the margin): the late samples of
    // the test above would find their stretch pruned, so that test provokes the case.
    long base = System.nanoTime() - 20 * SECOND;
    alternate(bridge, base);
    timelines.drain();
    timelines.pruneBefore(System.nanoTime() - MARGIN);
    assertThat(timelines.contextAt(1, base + 5 * SECOND)).isEqualTo(Timelines.UNKNOWN);
  }

  @Test
  void historyBehindTheWatermarkIsPruned() {
    long base = System.nanoTime() - 20 * SECOND;
    alternate(bridge, base);
    timelines.drain();
    timelines.pruneBehind(Long.MIN_VALUE, MARGIN); // nothing delivered yet: nothing pruned
    assertThat(timelines.stepCount()).isEqualTo(100);
    timelines.pruneBehind(base + 8 * SECOND, MARGIN);
    assertThat(timelines.stepCount()).isEqualTo(50); // from the step in force at 5 s on
    assertThat(timelines.contextAt(1, base + 4 * SECOND)).isEqualTo(Timelines.UNKNOWN);
  }
}
