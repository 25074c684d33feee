package io.spanflight.internal.correlate;

import static org.assertj.core.api.Assertions.assertThat;

import io.spanflight.internal.ScriptedBridge;
import io.spanflight.internal.bridge.TimelineSink;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Lost switches on a carrier's ring: the ring of an OS thread carries the switches of every
 * virtual thread mounted there, and a drain that finds entries overwritten cannot say whose they
 * were. Every virtual thread that may have been mounted there in the gap is unknown from the gap
 * until its next known switch; platform threads, whose rings are their own, are not.
 */
class CarrierLossTest {
  private static final long V1 = 101;
  private static final long V2 = 102;
  private static final long PLATFORM = 5;

  private final ScriptedBridge bridge = new ScriptedBridge(true);
  private final Timelines timelines = new Timelines(bridge);

  @Test
  void aVirtualThreadWhoseSwitchMayHaveBeenLostIsUnknownUntilItsNextSwitch() {
    long t0 = System.nanoTime();
    bridge.then(s -> s.switched(V1, t0, 11));
    bridge.then(s -> s.switched(PLATFORM, t0, 7));
    timelines.drain();
    long inGap = System.nanoTime(); // V1 switched to 12 on carrier A here; the entry was overwritten
    long afterGap = System.nanoTime() + 1;
    bridge.then(s -> s.lost(V2, 5)); // charged to the ring's last thread, which was V2
    bridge.then(s -> s.switched(V2, afterGap, 13));
    timelines.drain();

    assertThat(timelines.contextAt(V1, t0, true)).isEqualTo(11); // before the gap: known
    assertThat(timelines.contextAt(V1, inGap, true)).isEqualTo(Timelines.UNKNOWN);
    assertThat(timelines.contextAt(V1, afterGap + 10, true)).isEqualTo(Timelines.UNKNOWN);
    assertThat(timelines.contextAt(PLATFORM, inGap, false)).isEqualTo(7);
    // the gap is known to end only when the drain that found it returned: even V2's switch, drained
    // then, may have been followed by one lost on another carrier
    assertThat(timelines.contextAt(V2, afterGap + 10, true)).isEqualTo(Timelines.UNKNOWN);

    long next = System.nanoTime();
    bridge.then(s -> s.switched(V1, next, 14)); // V1's next known switch, on another carrier
    timelines.drain();
    assertThat(timelines.contextAt(V1, next + 10, true)).isEqualTo(14);
    assertThat(timelines.contextAt(V2, next + 10, true)).isEqualTo(Timelines.UNKNOWN);
  }

  /**
   * A 16-entry carrier ring, virtual threads switching far faster than the (paused) drain: each
   * sample is joined either to the context its thread really was in, or counted unknown.
   */
  @Test
  void aTinyCarrierRingWithTheDrainPausedGivesNoWrongLinks() {
    Random random = new Random(42);
    SimulatedCarrier carrier = new SimulatedCarrier(16);
    int threads = 8;
    List<long[]> truthTimes = new ArrayList<>();
    List<int[]> truthContexts = new ArrayList<>();
    for (int v = 0; v < threads; v++) {
      truthTimes.add(new long[0]);
      truthContexts.add(new int[0]);
    }
    int wrong = 0;
    int right = 0;
    int unknown = 0;
    for (int round = 0; round < 40; round++) {
      // a burst of switches between two drains: a few rounds overflow the ring, most do not
      int burst = round % 4 == 0 ? 40 + random.nextInt(200) : random.nextInt(12);
      for (int i = 0; i < burst; i++) {
        int v = random.nextInt(threads);
        int context = random.nextInt(4) == 0 ? 0 : 1 + random.nextInt(50);
        long at = System.nanoTime();
        carrier.append(1000 + v, at, context);
        truthTimes.set(v, append(truthTimes.get(v), at));
        truthContexts.set(v, append(truthContexts.get(v), context));
      }
      bridge.then(carrier::drainTo);
      timelines.drain();
      for (int k = 0; k < 50; k++) { // samples at random times since the start, any thread
        int v = random.nextInt(threads);
        long[] times = truthTimes.get(v);
        if (times.length == 0) {
          continue;
        }
        long at = times[0] + (long) (random.nextDouble() * (System.nanoTime() - times[0]));
        int truth = truthAt(times, truthContexts.get(v), at);
        int joined = timelines.contextAt(1000 + v, at, true);
        if (joined == Timelines.UNKNOWN) {
          unknown++;
        } else if (joined == truth) {
          right++;
        } else {
          wrong++;
        }
      }
    }
    System.out.printf("tiny carrier ring: %d right, %d unknown, %d wrong, %d lost%n",
        right, unknown, wrong, timelines.lostEntries());
    assertThat(timelines.lostEntries()).isPositive();
    assertThat(wrong).isZero();
    assertThat(unknown).isPositive();
    assertThat(right).isPositive();
  }

  private static int truthAt(long[] times, int[] contexts, long at) {
    int context = 0;
    for (int i = 0; i < times.length && times[i] <= at; i++) {
      context = contexts[i];
    }
    return context;
  }

  private static long[] append(long[] a, long v) {
    long[] b = java.util.Arrays.copyOf(a, a.length + 1);
    b[a.length] = v;
    return b;
  }

  private static int[] append(int[] a, int v) {
    int[] b = java.util.Arrays.copyOf(a, a.length + 1);
    b[a.length] = v;
    return b;
  }

  /**
   * One OS thread's ring as the native drain reports it (timeline_ring.c): the newest {@code
   * capacity} entries survive; lost entries are charged to the thread of the last entry delivered
   * before the gap, else of the first after it.
   */
  private static final class SimulatedCarrier {
    final int capacity;
    final List<long[]> entries = new ArrayList<>(); // {thread, time, context}
    long lastThread;

    SimulatedCarrier(int capacity) {
      this.capacity = capacity;
    }

    void append(long thread, long at, int context) {
      entries.add(new long[] {thread, at, context});
    }

    void drainTo(TimelineSink sink) {
      int lost = Math.max(0, entries.size() - capacity);
      List<long[]> kept = entries.subList(lost, entries.size());
      if (lost > 0) {
        sink.lost(lastThread != 0 ? lastThread : kept.get(0)[0], lost);
      }
      for (long[] e : kept) {
        sink.switched(e[0], e[1], (int) e[2]);
      }
      if (!kept.isEmpty()) {
        lastThread = kept.get(kept.size() - 1)[0];
      }
      entries.clear();
    }
  }
}
