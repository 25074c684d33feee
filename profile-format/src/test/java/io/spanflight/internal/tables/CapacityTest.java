package io.spanflight.internal.tables;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A cleared table keeps the arrays a steady load needs, and lets a burst's size go. */
class CapacityTest {
  @Test
  void keepsAnArrayWithinFourTimesWhatTheLastUseNeeded() {
    assertThat(Capacity.afterClear(4096, 1024, 64)).isEqualTo(4096);
    assertThat(Capacity.afterClear(4096, 1500, 64)).isEqualTo(4096);
    assertThat(Capacity.afterClear(256, 0, 64)).isEqualTo(256); // within 4 x the initial length
  }

  @Test
  void shrinksAnArrayLeftLargeByABurstToTwiceTheLastUse() {
    assertThat(Capacity.afterClear(1 << 20, 1000, 1024)).isEqualTo(2048);
    assertThat(Capacity.afterClear(1 << 20, 1025, 1024)).isEqualTo(4096);
    assertThat(Capacity.afterClear(65_536, 0, 64)).isEqualTo(64);
    assertThat(Capacity.afterClear(768 * 64, 10, 768)).as("initial not a power of two").isEqualTo(768);
  }

  @Test
  void neverOverflowsOnHugeLengths() {
    assertThat(Capacity.afterClear(Integer.MAX_VALUE - 8, Integer.MAX_VALUE / 4, 1024))
        .isEqualTo(Integer.MAX_VALUE - 8);
  }
}
