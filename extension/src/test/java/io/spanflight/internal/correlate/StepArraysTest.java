package io.spanflight.internal.correlate;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StepArraysTest {

  @Test
  void aReturnedPairIsHandedOutAgainForTheSameLength() {
    StepArrays arrays = new StepArrays(1 << 20);
    StepBlock first = arrays.take(1024, 0);
    arrays.give(first);
    assertThat(arrays.freeBytes()).isEqualTo(1024 * StepArrays.STEP_BYTES);

    assertThat(arrays.take(2048, 0)).isNotSameAs(first); // another length: a new pair
    assertThat(arrays.take(1024, 0)).isSameAs(first);
    assertThat(arrays.freeBytes()).isZero();
    assertThat(arrays.created()).isEqualTo(2);
    arrays.take(StepArrays.COUNTED_LENGTH / 2, 0);
    assertThat(arrays.created()).as("small pairs are not counted").isEqualTo(2);
  }

  @Test
  void aNewThreadsSmallBlockIsKeptToo() {
    StepArrays arrays = new StepArrays(1 << 20);
    StepBlock small = arrays.take(ThreadTimeline.INITIAL_STEPS, 0);
    arrays.give(small);
    assertThat(arrays.freeBytes()).isEqualTo(ThreadTimeline.INITIAL_STEPS * StepArrays.STEP_BYTES);
    assertThat(arrays.take(ThreadTimeline.INITIAL_STEPS, 0)).isSameAs(small);
  }

  @Test
  void aWidenedBlockKeepsItsLongTimesForItsNextWidening() {
    StepArrays arrays = new StepArrays(1 << 20);
    StepBlock block = arrays.take(1024, 0);
    block.set(0, 5_000_000_000L, 7); // 5 s from the base: widens
    long widened = block.memoryBytes();
    assertThat(widened).isEqualTo(1024 * (StepArrays.STEP_BYTES + Long.BYTES));
    arrays.give(block);
    assertThat(arrays.freeBytes()).as("the long times counted while it waits").isEqualTo(widened);

    StepBlock again = arrays.take(1024, 100);
    assertThat(again).isSameAs(block);
    assertThat(arrays.freeBytes()).isZero();
    again.set(0, 150, 1);
    assertThat(again.time(0)).as("offsets again after the start over").isEqualTo(150);
    again.set(1, Long.MIN_VALUE, 2); // an unknown stretch: widens, into the array it kept
    assertThat(again.time(0)).isEqualTo(150);
    assertThat(again.time(1)).isEqualTo(Long.MIN_VALUE);
    assertThat(again.context(1)).isEqualTo(2);
    assertThat(again.memoryBytes()).isEqualTo(widened);
  }

  @Test
  void atMostTheBoundWaits() {
    StepArrays arrays = new StepArrays(1024 * StepArrays.STEP_BYTES);
    StepBlock kept = arrays.take(1024, 0);
    StepBlock dropped = arrays.take(1024, 0);
    arrays.give(kept);
    arrays.give(dropped);
    assertThat(arrays.freeBytes()).isEqualTo(1024 * StepArrays.STEP_BYTES);
    assertThat(arrays.take(1024, 0)).isSameAs(kept);
    assertThat(arrays.take(1024, 0)).isNotSameAs(dropped);
  }
}
