package io.spanflight.internal.correlate;

import static org.assertj.core.api.Assertions.assertThat;

import io.spanflight.internal.TestBridge;
import io.spanflight.internal.bridge.TimelineSink;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class TimelinesTest {

  /** A bridge whose drain replays scripted calls into the sink. */
  private static final class ScriptedBridge extends TestBridge {
    final List<Consumer<TimelineSink>> script = new ArrayList<>();
    int drains;

    @Override
    public void drain(TimelineSink sink) {
      drains++;
      script.forEach(step -> step.accept(sink));
      script.clear();
    }
  }

  private final ScriptedBridge bridge = new ScriptedBridge();
  private final Timelines timelines = new Timelines(bridge);

  @Test
  void thePaceFollowsTheFullestRingNotAllRingsTogether() {
    DrainPace pace = new DrainPace(4096);
    for (int ring = 0; ring < 10; ring++) {
      long thread = ring + 1;
      bridge.script.add(s -> {
        for (int i = 0; i < 100; i++) {
          s.switched(thread, 1000 + i, 7);
        }
        s.ringDrained(100);
      });
    }
    assertThat(timelines.drainPaced(pace))
        .as("1000 entries, but no ring took more than 100 of its 4096: slower")
        .isEqualTo(2 * DrainPace.FASTEST_MILLIS);

    bridge.script.add(s -> s.ringDrained(10));
    bridge.script.add(s -> s.ringDrained(600));
    assertThat(timelines.drainPaced(pace)).as("one ring took an eighth of its size").isEqualTo(DrainPace.FASTEST_MILLIS);
  }

  @Test
  void joinsByThreadAndTime() {
    bridge.script.add(s -> s.switched(1, 100, 7));
    bridge.script.add(s -> s.switched(1, 200, 0));
    bridge.script.add(s -> s.switched(2, 150, 9));
    timelines.drain();

    assertThat(timelines.contextAt(1, 99)).isZero();
    assertThat(timelines.contextAt(1, 100)).isEqualTo(7);
    assertThat(timelines.contextAt(1, 199)).isEqualTo(7);
    assertThat(timelines.contextAt(1, 200)).isZero();
    assertThat(timelines.contextAt(2, 160)).isEqualTo(9);
    assertThat(timelines.contextAt(3, 160)).isZero();
  }

  @Test
  void aVirtualThreadsSwitchesDrainedFromTwoCarriersOutOfOrderStillJoinByTime() {
    // virtual thread 42 attached on carrier A at 100, resumed on carrier B and closed at 300;
    // this drain reads B's ring before A's
    bridge.script.add(s -> s.switched(42, 300, 0));
    bridge.script.add(s -> s.switched(42, 100, 7));
    bridge.script.add(s -> s.switched(42, 400, 8));
    bridge.script.add(s -> s.switched(42, 350, 0));
    timelines.drain();

    assertThat(timelines.contextAt(42, 99)).isZero();
    assertThat(timelines.contextAt(42, 200)).isEqualTo(7);
    assertThat(timelines.contextAt(42, 320)).isZero();
    assertThat(timelines.contextAt(42, 360)).isZero();
    assertThat(timelines.contextAt(42, 450)).isEqualTo(8);
  }

  @Test
  void drainsBeforeJoiningASampleNewerThanTheLastDrain() {
    timelines.drain();
    long switchedAt = System.nanoTime();
    bridge.script.add(s -> s.switched(1, switchedAt, 5));
    int drainsBefore = bridge.drains;
    assertThat(timelines.contextAt(1, System.nanoTime())).isEqualTo(5);
    assertThat(bridge.drains).isEqualTo(drainsBefore + 1);
  }

  @Test
  void lostEntriesMakeTheStretchUnknownUntilTheNextKnownSwitch() {
    bridge.script.add(s -> s.switched(1, 100, 7));
    bridge.script.add(s -> s.lost(1, 3));
    bridge.script.add(s -> s.switched(1, 500, 8));
    timelines.drain();

    assertThat(timelines.contextAt(1, 100)).isEqualTo(7);
    assertThat(timelines.contextAt(1, 101)).isEqualTo(Timelines.UNKNOWN);
    assertThat(timelines.contextAt(1, 499)).isEqualTo(Timelines.UNKNOWN);
    assertThat(timelines.contextAt(1, 500)).isEqualTo(8);
    assertThat(timelines.lostEntries()).isEqualTo(3);
    assertThat(timelines.overCap()).as("lost in the ring, not over the cap").isZero();
  }

  @Test
  void pruningKeepsTheStepInForceAndForgetsWhatCameBefore() {
    bridge.script.add(s -> s.switched(1, 100, 7));
    bridge.script.add(s -> s.switched(1, 200, 8));
    bridge.script.add(s -> s.switched(1, 300, 9));
    timelines.drain();

    timelines.pruneBefore(250);

    assertThat(timelines.stepCount()).isEqualTo(2);
    assertThat(timelines.contextAt(1, 260)).isEqualTo(8);
    assertThat(timelines.contextAt(1, 150)).isEqualTo(Timelines.UNKNOWN);
    BitSet referenced = new BitSet();
    referenced.set(3); // what the previous prune left: cleared first
    timelines.referencedIds(referenced);
    assertThat(referenced.stream().toArray()).containsExactly(8, 9);
  }

  @Test
  void idleThreadsWithoutContextAreDroppedButIdleThreadsInsideASpanAreKept() {
    bridge.script.add(s -> s.switched(1, 100, 7));
    bridge.script.add(s -> s.switched(1, 200, 0));
    bridge.script.add(s -> s.switched(2, 100, 9));
    timelines.drain();

    timelines.pruneBefore(300);

    assertThat(timelines.threadCount()).isEqualTo(1);
    assertThat(timelines.contextAt(1, 400)).isZero();
    assertThat(timelines.contextAt(2, 400)).isEqualTo(9);
  }

  @Test
  void aThreadWhoseTimelineWasDroppedGetsANewOneAtItsNextSwitch() {
    bridge.script.add(s -> s.switched(1, 100, 7));
    bridge.script.add(s -> s.switched(1, 200, 0)); // thread 1 is the last one switched
    timelines.drain();
    timelines.pruneBefore(300); // idle without context since 200: dropped

    bridge.script.add(s -> s.switched(1, 400, 9));
    timelines.drain();

    assertThat(timelines.contextAt(1, 450)).isEqualTo(9);
    assertThat(timelines.threadCount()).isEqualTo(1);
  }

  @Test
  void aNewThreadGetsAClearedTimelineOfAThreadThatIsGone() {
    bridge.script.add(s -> s.switched(1, 100, 7));
    bridge.script.add(s -> s.switched(1, 200, 8));
    bridge.script.add(s -> s.switched(1, 300, 0));
    bridge.script.add(s -> s.threadEnded(1));
    timelines.drain();
    timelines.pruneBefore(250); // keeps 8 from 200: what came before is unknown
    timelines.pruneBefore(400); // thread 1 ended: its timeline goes, for the next new thread

    bridge.script.add(s -> s.switched(2, 500, 9));
    timelines.drain();

    assertThat(timelines.threadCount()).isEqualTo(1);
    assertThat(timelines.contextAt(2, 150)).as("before its first switch, not unknown").isZero();
    assertThat(timelines.contextAt(2, 550)).isEqualTo(9);
    assertThat(timelines.contextAt(1, 550)).isZero();
    BitSet referenced = new BitSet();
    timelines.referencedIds(referenced);
    assertThat(referenced.stream().toArray()).containsExactly(9);
    assertThat(timelines.stepCount()).isEqualTo(1);
  }

  @Test
  void afterForgettingAllAThreadsNextSwitchStartsANewTimeline() {
    bridge.script.add(s -> s.switched(1, 100, 7));
    timelines.drain();
    timelines.forgetAll(); // switched off

    bridge.script.add(s -> s.switched(1, 400, 9));
    timelines.drain();

    assertThat(timelines.contextAt(1, 450)).isEqualTo(9);
    assertThat(timelines.threadCount()).isEqualTo(1);
  }

  @Test
  void beyondTheCapSwitchesAreCountedAsLostAndTheirStretchIsUnknown() {
    Timelines capped = new Timelines(bridge, 3);
    bridge.script.add(s -> s.switched(1, 100, 7));
    bridge.script.add(s -> s.switched(1, 200, 8));
    bridge.script.add(s -> s.switched(2, 150, 5));
    bridge.script.add(s -> s.switched(1, 300, 9)); // over the cap: dropped, stretch unknown
    bridge.script.add(s -> s.switched(1, 400, 0));
    capped.drain();

    assertThat(capped.contextAt(1, 250)).isEqualTo(Timelines.UNKNOWN);
    assertThat(capped.contextAt(1, 450)).isEqualTo(Timelines.UNKNOWN);
    assertThat(capped.contextAt(1, 150)).isEqualTo(7);
    assertThat(capped.lostEntries()).isEqualTo(2);
    assertThat(capped.overCap()).isEqualTo(2);

    capped.pruneBefore(250); // frees room: history after the cap-drop is known again
    bridge.script.add(s -> s.switched(1, 500, 6));
    capped.drain();
    assertThat(capped.contextAt(1, 550)).isEqualTo(6);
  }

  @Test
  void endedThreadsAreDroppedOnceTheirHistoryIsPastTheHorizon() {
    bridge.script.add(s -> s.switched(1, 100, 7));
    bridge.script.add(s -> s.threadEnded(1));
    timelines.drain();

    timelines.pruneBefore(50);
    assertThat(timelines.threadCount()).isEqualTo(1);
    timelines.pruneBefore(150);
    assertThat(timelines.threadCount()).isZero();
  }

  @Test
  void threadsThatSwitchInBurstsReuseTheirArraysInsteadOfAllocatingNewOnes() {
    long t = 0;
    long createdAfterFirstBurst = -1;
    for (int burst = 0; burst < 10; burst++) {
      // two threads take turns being busy: 5 000 switches (arrays grow to 8 192 steps), then
      // their history is pruned (arrays shrink step by step); the idle one is removed
      for (long thread = 1; thread <= 2; thread++) {
        long busy = thread;
        long from = t;
        bridge.script.add(s -> {
          for (int i = 0; i < 5_000; i++) {
            s.switched(busy, from + i, i % 2 == 0 ? 7 : 0);
          }
        });
        t += 5_000;
        timelines.drain();
        for (int prune = 0; prune < 8; prune++) {
          timelines.pruneBefore(t - 1);
        }
      }
      assertThat(timelines.contextAt(1, t)).isZero();
      if (burst == 0) {
        createdAfterFirstBurst = timelines.stepArraysCreated();
      }
    }
    assertThat(createdAfterFirstBurst).isPositive();
    assertThat(timelines.stepArraysCreated()).isEqualTo(createdAfterFirstBurst);
    assertThat(timelines.memoryBytes()).isLessThanOrEqualTo(Timelines.MAX_FREE_ARRAY_BYTES + 2 * 64 * StepArrays.STEP_BYTES);
  }

  @Test
  void historyIsRightAcrossReusedArrays() {
    // thread 1 grows and lets go of big arrays; thread 2 then gets them, filled with 1's old steps
    bridge.script.add(s -> {
      for (int i = 0; i < 3_000; i++) {
        s.switched(1, i, 5);
      }
    });
    timelines.drain();
    timelines.pruneBefore(10_000); // thread 1 idle in context 5: kept, shrunk
    for (int prune = 0; prune < 6; prune++) {
      timelines.pruneBefore(10_000);
    }
    bridge.script.add(s -> {
      for (int i = 0; i < 2_000; i++) {
        s.switched(2, 20_000 + 2L * i, i % 2 == 0 ? 9 : 0);
      }
    });
    timelines.drain();
    assertThat(timelines.contextAt(2, 19_999)).isZero();
    assertThat(timelines.contextAt(2, 20_000)).isEqualTo(9);
    assertThat(timelines.contextAt(2, 20_001)).isEqualTo(9);
    assertThat(timelines.contextAt(2, 20_002)).isZero();
    assertThat(timelines.contextAt(2, 23_998)).isEqualTo(0);
    assertThat(timelines.contextAt(2, 23_997)).isEqualTo(9);
    assertThat(timelines.contextAt(1, 10_500)).isEqualTo(5);
  }
}
