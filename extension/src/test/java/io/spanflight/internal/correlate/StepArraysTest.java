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
    arrays.take(StepArrays.MIN_POOLED / 2, 0);
    assertThat(arrays.created()).as("small pairs are not counted").isEqualTo(2);
  }

  @Test
  void smallPairsAreNotKept() {
    StepArrays arrays = new StepArrays(1 << 20);
    StepBlock small = arrays.take(StepArrays.MIN_POOLED / 2, 0);
    arrays.give(small);
    assertThat(arrays.freeBytes()).isZero();
    assertThat(arrays.take(StepArrays.MIN_POOLED / 2, 0)).isNotSameAs(small);
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
