package io.spanflight.internal.bridge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Switches stamped with the real TSC come out of the drain on the nanoTime clock. */
class NativeSwitchClockTest {
  private final NativeContextBridge bridge = NativeTestSupport.bridge();
  private final RecordingSink sink = new RecordingSink();

  @Test
  void theLibraryReadsPairsOnThisMachine() {
    long[] pair = new long[3];
    assertThat(NativeContextBridge.clockPair0(pair)).isTrue();
    assertThat(pair[1]).isCloseTo(System.nanoTime(), org.assertj.core.data.Offset.offset(1_000_000_000L));
    assertThat(pair[2]).isNotNegative();
  }

  @Test
  void tickStampedSwitchesLieBetweenTheNanoTimesAroundThem() throws Exception {
    SwitchClock clock = NativeDrain.clock();
    assumeTrue(clock.eligible(), "no trustworthy TSC here: switches use CLOCK_MONOTONIC");
    sink.drainUntil(bridge, clock::usingTicks);
    long[] brackets = new long[400]; // nanoTime before and after each switch
    long thread = TestThreads.runToOsThreadExit(() -> {
      for (int i = 0; i < 200; i++) {
        long before = System.nanoTime();
        bridge.switchTo(700 + i % 2);
        long after = System.nanoTime();
        brackets[2 * i] = before;
        brackets[2 * i + 1] = after;
      }
    });
    RecordingSink drained = new RecordingSink();
    drained.drainUntil(bridge, () -> drained.ended.contains(thread));

    List<String> events = drained.eventsOf(thread);
    assertThat(events).as("every switch mapped, none lost").hasSize(201).endsWith("ended");
    int first = drained.events.indexOf(thread + ":700");
    long tolerance = TickClockMap.MAX_RESIDUAL_NANOS;
    for (int i = 0; i < 200; i++) {
      long mapped = drained.times.get(first + i);
      assertThat(mapped).as("switch %d", i)
          .isBetween(brackets[2 * i] - tolerance, brackets[2 * i + 1] + tolerance);
    }
  }
}
