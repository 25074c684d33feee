package io.spanflight.internal.correlate;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StepArraysTest {

  @Test
  void aReturnedPairIsHandedOutAgainForTheSameLength() {
    StepArrays arrays = new StepArrays(1 << 20);
    StepArrays.Pair first = arrays.take(1024);
    arrays.give(first);
    assertThat(arrays.freeBytes()).isEqualTo(1024 * StepArrays.STEP_BYTES);

    assertThat(arrays.take(2048)).isNotSameAs(first); // another length: a new pair
    assertThat(arrays.take(1024)).isSameAs(first);
    assertThat(arrays.freeBytes()).isZero();
    assertThat(arrays.created()).isEqualTo(2);
    arrays.take(StepArrays.MIN_POOLED / 2);
    assertThat(arrays.created()).as("small pairs are not counted").isEqualTo(2);
  }

  @Test
  void smallPairsAreNotKept() {
    StepArrays arrays = new StepArrays(1 << 20);
    StepArrays.Pair small = arrays.take(StepArrays.MIN_POOLED / 2);
    arrays.give(small);
    assertThat(arrays.freeBytes()).isZero();
    assertThat(arrays.take(StepArrays.MIN_POOLED / 2)).isNotSameAs(small);
  }

  @Test
  void atMostTheBoundWaits() {
    StepArrays arrays = new StepArrays(1024 * StepArrays.STEP_BYTES);
    StepArrays.Pair kept = arrays.take(1024);
    StepArrays.Pair dropped = arrays.take(1024);
    arrays.give(kept);
    arrays.give(dropped);
    assertThat(arrays.freeBytes()).isEqualTo(1024 * StepArrays.STEP_BYTES);
    assertThat(arrays.take(1024)).isSameAs(kept);
    assertThat(arrays.take(1024)).isNotSameAs(dropped);
  }
}
