package io.spanflight.internal.correlate;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DrainPaceTest {
  private final DrainPace pace = new DrainPace(4096);

  @Test
  void slowsDownStepByStepWhileDrainsFindLittle() {
    assertThat(pace.next(0, false)).isEqualTo(20);
    assertThat(pace.next(10, false)).isEqualTo(40);
    assertThat(pace.next(0, false)).isEqualTo(DrainPace.SLOWEST_MILLIS);
    assertThat(pace.next(0, false)).isEqualTo(DrainPace.SLOWEST_MILLIS);
  }

  @Test
  void backToTheFastestPaceAtOnceWhenRingsFillOrLoseEntries() {
    pace.next(0, false);
    pace.next(0, false);
    assertThat(pace.next(512, false)).as("an eighth of a ring").isEqualTo(DrainPace.FASTEST_MILLIS);
    pace.next(0, false);
    assertThat(pace.next(0, true)).as("lost entries").isEqualTo(DrainPace.FASTEST_MILLIS);
  }

  @Test
  void keepsItsPaceInBetween() {
    pace.next(0, false); // 20 ms
    assertThat(pace.next(200, false)).as("between a 32nd and an 8th of a ring").isEqualTo(20);
  }
}
