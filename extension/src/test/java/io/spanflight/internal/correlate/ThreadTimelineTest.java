package io.spanflight.internal.correlate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class ThreadTimelineTest {

  /**
   * A timeline of many blocks answers as a sorted map of its steps would: steps mostly in order,
   * some late (as a virtual thread's from another carrier's ring), some seconds apart (beyond what
   * an int offset holds), pruned as the stream moves on; times start anywhere, negative too.
   */
  @Test
  void answersAsASortedMapOfItsStepsAcrossBlocksLateStepsAndPrunes() {
    Random random = new Random(42);
    for (int round = 0; round < 20; round++) {
      StepArrays arrays = new StepArrays(1 << 20);
      long now = random.nextLong() / 2;
      ThreadTimeline timeline = new ThreadTimeline(arrays, now);
      TreeMap<Long, Integer> expected = new TreeMap<>();
      long knownSince = Long.MIN_VALUE;
      for (int op = 0; op < 20_000; op++) {
        now += 1 + random.nextInt(10);
        if (random.nextInt(5_000) == 0) {
          now += 3_000_000_000L; // a quiet thread: its block spans more than an int of nanoseconds
        }
        long time = random.nextInt(20) == 0 ? now - random.nextInt(200) : now; // one in 20 late
        if (time > knownSince && !expected.containsKey(time)) {
          int context = random.nextInt(50);
          timeline.add(time, context);
          expected.put(time, context);
        }
        if (random.nextInt(2_000) == 0) {
          long before = now - random.nextInt(3_000);
          timeline.pruneBefore(before);
          Long inForce = expected.floorKey(before);
          if (inForce != null && inForce > expected.firstKey()) {
            expected.headMap(inForce, false).clear();
            knownSince = inForce;
          }
          assertThat(timeline.memoryBytes())
              .as("blocks held for %d steps", timeline.size())
              .isLessThanOrEqualTo( // a block widened by a gap of seconds holds long times too
                  (timeline.size() + 2L * ThreadTimeline.BLOCK_STEPS) * (StepArrays.STEP_BYTES + Long.BYTES));
        }
        if (op % 7 == 0) {
          long at = now - random.nextInt(4_000);
          Map.Entry<Long, Integer> step = expected.floorEntry(at);
          int want = at < knownSince ? Timelines.UNKNOWN : step == null ? 0 : step.getValue();
          assertThat(timeline.contextAt(at)).as("context at %d", at).isEqualTo(want);
        }
      }
      assertThat(timeline.size()).isEqualTo(expected.size());
      assertThat(timeline.lastTime()).isEqualTo(expected.lastKey());
    }
  }

  @Test
  void aBusyThreadsHistoryIsPrunedBlockByBlockAndItsBlocksAreReused() {
    StepArrays arrays = new StepArrays(1 << 20);
    ThreadTimeline timeline = new ThreadTimeline(arrays, 0);
    int steps = 10 * ThreadTimeline.BLOCK_STEPS;
    for (int i = 0; i < steps; i++) {
      timeline.add(i, i % 3);
    }
    assertThat(timeline.memoryBytes()).isEqualTo(steps * StepArrays.STEP_BYTES);

    timeline.pruneBefore(steps - ThreadTimeline.BLOCK_STEPS / 2); // the newest half block stays

    assertThat(timeline.size()).isEqualTo(ThreadTimeline.BLOCK_STEPS / 2);
    assertThat(timeline.memoryBytes()).as("one block left").isEqualTo(ThreadTimeline.BLOCK_STEPS * StepArrays.STEP_BYTES);
    assertThat(timeline.contextAt(steps - 1)).isEqualTo((steps - 1) % 3);
    assertThat(timeline.contextAt(steps - ThreadTimeline.BLOCK_STEPS)).isEqualTo(Timelines.UNKNOWN);
    long created = arrays.created();
    for (int i = steps; i < steps + 9 * ThreadTimeline.BLOCK_STEPS; i++) { // the 9 blocks handed back
      timeline.add(i, i % 3);
    }
    assertThat(arrays.created()).as("blocks handed back are taken again").isEqualTo(created);
  }

  @Test
  void timesSecondsApartKeepTheirExactTimes() {
    ThreadTimeline timeline = new ThreadTimeline(new StepArrays(1 << 20), 5_000_000_000L);
    timeline.add(5_000_000_000L, 7);
    timeline.add(9_000_000_001L, 8); // 4 s after the block's base: more than an int offset holds
    timeline.add(-3_000_000_000L, 9); // late, and far before the block's base

    assertThat(timeline.contextAt(-3_000_000_001L)).isZero();
    assertThat(timeline.contextAt(-3_000_000_000L)).isEqualTo(9);
    assertThat(timeline.contextAt(4_999_999_999L)).isEqualTo(9);
    assertThat(timeline.contextAt(9_000_000_000L)).isEqualTo(7);
    assertThat(timeline.contextAt(9_000_000_001L)).isEqualTo(8);
    assertThat(timeline.lastTime()).isEqualTo(9_000_000_001L);
  }

  @Test
  void anUnknownStretchFromTheBeginningStartsAtTheFirstInstant() {
    ThreadTimeline timeline = new ThreadTimeline(new StepArrays(1 << 20), 5_000_000_000L);
    timeline.markUnknownFromLastStep(); // no step yet: unknown from Long.MIN_VALUE
    timeline.add(5_000_000_000L, 7);

    assertThat(timeline.contextAt(Long.MIN_VALUE)).isEqualTo(Timelines.UNKNOWN);
    assertThat(timeline.contextAt(4_999_999_999L)).isEqualTo(Timelines.UNKNOWN);
    assertThat(timeline.contextAt(5_000_000_000L)).isEqualTo(7);
  }
}
