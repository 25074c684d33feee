package io.spanflight.internal.instrumentation.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What the advice's exit call records: timed calls in the counters, traced calls in the queue. */
class MethodClockTest {
  @AfterEach
  void clear() {
    MethodClock.clear();
  }

  @Test
  void timedCallsAddUpOverThreadsAndTracedCallsAreQueuedInOrder() throws InterruptedException {
    MethodCounters counters = new MethodCounters(4, 4, 4);
    TraceQueue traces = new TraceQueue(4, 64, 4, 64);
    MethodClock.configure(new ThreadSlots(4), counters, traces, null);
    int threads = 6;
    int callsEach = 1000;
    CountDownLatch done = new CountDownLatch(threads);
    for (int t = 0; t < threads; t++) {
      new Thread(() -> {
        for (int i = 0; i < callsEach; i++) {
          MethodClock.exit(2, MethodClock.TIMED, System.nanoTime() - 10);
        }
        done.countDown();
      }).start();
    }
    done.await();
    long start = System.nanoTime();
    MethodClock.exit(3, MethodClock.TIMED | MethodClock.TRACED, start);
    MethodClock.exit(1, MethodClock.TRACED, start + 1);

    long[] totals = new long[2];
    counters.read(2, totals);
    assertThat(totals[0]).isEqualTo(threads * callsEach);
    assertThat(totals[1]).isGreaterThanOrEqualTo(10L * threads * callsEach);
    counters.read(3, totals);
    assertThat(totals[0]).isEqualTo(1);
    counters.read(1, totals);
    assertThat(totals[0]).as("traced only: not timed").isZero();

    List<long[]> drained = new ArrayList<>();
    traces.drain((thread, s, e, id, stack) -> drained.add(new long[] {thread, s, e, id}));
    assertThat(drained).hasSize(2);
    assertThat(drained.get(0)).containsExactly(Thread.currentThread().getId(), start, drained.get(0)[2], 3);
    assertThat(drained.get(0)[2]).isGreaterThanOrEqualTo(start);
    assertThat(drained.get(1)[3]).isEqualTo(1);
    assertThat(traces.drain((thread, s, e, id, stack) -> drained.add(null))).isZero();
  }

  @Test
  void aFullQueueDropsAndCountsUntilDrained() {
    TraceQueue traces = new TraceQueue(1, 16, 1, 16);
    for (int i = 0; i < 20; i++) {
      traces.offer(-1, 1, i, i + 1, 0, null);
    }
    assertThat(traces.dropped()).isEqualTo(4);
    List<Long> starts = new ArrayList<>();
    assertThat(traces.drain((thread, s, e, id, stack) -> starts.add(s))).isEqualTo(16);
    assertThat(starts).startsWith(0L, 1L).endsWith(15L);
    for (int round = 0; round < 3; round++) { // the ring wraps around
      traces.offer(-1, 1, 100 + round, 101 + round, 0, null);
      assertThat(traces.drain((thread, s, e, id, stack) -> starts.add(s))).isEqualTo(1);
    }
    assertThat(starts).endsWith(100L, 101L, 102L);
  }

  @Test
  void nothingIsRecordedBeforeConfigureOrAfterClear() {
    MethodClock.clear();
    MethodClock.exit(0, MethodClock.TIMED | MethodClock.TRACED, System.nanoTime());
    assertThat(MethodClock.counters()).isNull();
  }

  @Test
  void aThreadOwnsItsSlotUntilItEndsAndAThreadWhoseSlotIsTakenGoesShared() throws InterruptedException {
    ThreadSlots slots = new ThreadSlots(1);
    Thread self = Thread.currentThread();
    assertThat(slots.slotOf(self, self.getId())).isZero();
    int[] other = new int[1];
    Thread second = new Thread(() -> other[0] = slots.slotOf(Thread.currentThread(), Thread.currentThread().getId()));
    second.start();
    second.join();
    assertThat(other[0]).as("slot 0 is the test thread's").isEqualTo(-1);

    Thread first = new Thread(() -> {});
    ThreadSlots fresh = new ThreadSlots(1);
    assertThat(fresh.slotOf(first, 7)).isZero(); // claimed for a thread that never runs: not alive
    fresh.releaseDead();
    assertThat(fresh.owned()).isZero();
    assertThat(fresh.slotOf(self, self.getId())).isZero();
    fresh.releaseDead();
    assertThat(fresh.owned()).as("a live owner keeps its slot").isEqualTo(1);
  }

  @Test
  void aFullOwnedRingSpillsIntoTheSharedRingThenDrops() {
    TraceQueue traces = new TraceQueue(1, 16, 1, 16);
    for (int i = 0; i < 40; i++) {
      traces.offer(0, 1, i, i + 1, 0, null);
    }
    assertThat(traces.dropped()).isEqualTo(8);
    List<Long> starts = new ArrayList<>();
    assertThat(traces.drain((thread, s, e, id, stack) -> starts.add(s))).isEqualTo(32);
    assertThat(starts).hasSize(32).doesNotHaveDuplicates().allMatch(s -> s < 32);
  }

  @Test
  void stacksAreRationedPerMethodAndOverAllMethods() {
    MethodStacks perMethod = new MethodStacks(2, 64, 1_000_000_000_000L, 0);
    MethodStacks overAll = new MethodStacks(2, 64, 0, 1_000_000_000_000L);
    MethodStacks everyCall = new MethodStacks(1, 2, 0, 0);
    long now = System.nanoTime(); // after they were made
    assertThat(perMethod.capture(0, now)).isInstanceOf(StackWalker.StackFrame[].class);
    assertThat(perMethod.capture(0, now + 1)).isNull();
    assertThat(perMethod.capture(1, now + 1)).as("another method has its own ration").isNotNull();

    assertThat(overAll.capture(0, now)).isNotNull();
    assertThat(overAll.capture(1, now + 1)).isNull();
    StackWalker.StackFrame[] frames = (StackWalker.StackFrame[]) everyCall.capture(0, now);
    assertThat(frames).hasSize(3); // the caller of capture, then two callers
    assertThat(frames[0].getMethodName()).isEqualTo("stacksAreRationedPerMethodAndOverAllMethods");
  }
}
