package io.spanflight.internal.bridge;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A ring's switches keep their order across drains, even when the clock's line is refitted
 * between them: without that, the timeline would show the thread in the context it had left.
 * The arrays are filled here as {@code drain0} would fill them; the clock is a fake TSC.
 */
class NativeDrainOrderTest {
  private static final long RING = 7;
  private static final long OTHER_RING = 8;
  private static final long THREAD = 42;

  private final SwitchClockTest.FakeTicks ticks = new SwitchClockTest.FakeTicks();
  private final SwitchClock clock = new SwitchClock(ticks, () -> "tsc", () -> ticks.now);
  private final NativeDrain drain = new NativeDrain(NativeTestSupport.RING_CAPACITY, clock);
  private final RecordingSink sink = new RecordingSink();
  private int rings;
  private int entries;

  /** The fake TSC's tick at a nanoTime (2.5 ticks per ns). */
  private static long tickAt(long nanoTime) {
    return 7_000_000L + nanoTime * 5 / 2;
  }

  private void calibrate(int times) {
    for (int i = 0; i < times; i++) {
      ticks.now += 10_000_000;
      clock.calibrate();
    }
  }

  private void ring(long number, boolean freed, long... entryTicks) {
    int at = rings++ * NativeDrain.META_LONGS;
    drain.meta[at + NativeDrain.DELIVERED] = entryTicks.length;
    drain.meta[at + NativeDrain.LOST] = 0;
    drain.meta[at + NativeDrain.ENDED] = 0;
    drain.meta[at + NativeDrain.RING] = number;
    drain.meta[at + NativeDrain.FREED] = freed ? 1 : 0;
    for (long tick : entryTicks) {
      drain.times[entries] = tick;
      drain.clocks[entries] = SwitchClock.TICKS;
      drain.threadIds[entries] = THREAD;
      drain.contexts[entries] = entries + 1;
      entries++;
    }
  }

  private void deliver() {
    drain.deliver(rings, sink);
    rings = 0;
    entries = 0;
  }

  @Test
  void aSwitchIsNeverPlacedBeforeTheSameRingsSwitchOfAnEarlierDrain() {
    calibrate(TickClockMap.MIN_PAIRS);
    assertThat(clock.usingTicks()).isTrue();
    long first = tickAt(ticks.now - 200);
    ring(RING, false, tickAt(ticks.now - 1_000), first);
    deliver();
    long firstTime = sink.times.get(1);

    // One pair read 150 ns low: still within the map's residual, but the line moves down.
    ticks.skew = -150;
    calibrate(1);
    assertThat(clock.map().fits()).isTrue();
    long next = first + 5; // 2 ns after the first switch
    long refitted = clock.toNanos(next, SwitchClock.TICKS);
    assertThat(refitted).as("the refit moved the line below the first switch").isLessThan(firstTime);

    ring(RING, false, next);
    ring(OTHER_RING, false, next);
    deliver();

    assertThat(sink.times.get(2)).as("the same ring's next switch").isGreaterThanOrEqualTo(firstTime);
    assertThat(sink.times.get(3)).as("another ring is not held back").isEqualTo(refitted);
  }

  @Test
  void aFreedRingIsForgotten() {
    calibrate(TickClockMap.MIN_PAIRS);
    ring(RING, false, tickAt(ticks.now - 100));
    ring(OTHER_RING, false, tickAt(ticks.now - 50));
    deliver();
    assertThat(drain.ringsKept()).isEqualTo(2);

    ring(RING, true); // freed, nothing else to report
    deliver();
    assertThat(drain.ringsKept()).isEqualTo(1);

    drain.forgetRings();
    assertThat(drain.ringsKept()).isZero();
  }
}
