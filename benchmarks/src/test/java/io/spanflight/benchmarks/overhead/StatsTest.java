package io.spanflight.benchmarks.overhead;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.stream.DoubleStream;
import org.junit.jupiter.api.Test;

class StatsTest {
  private static List<Double> values(double... values) {
    return DoubleStream.of(values).boxed().toList();
  }

  @Test
  void sevenPairsGiveTheirWholeRangeAsTheMediansInterval() {
    // 2 * (1/128 + 7/128) = 12.5 % outside [2nd, 6th]: too little, so the interval is min..max
    double[] interval = Stats.medianInterval(values(1.04, 0.96, 1.26, 1.03, 1.02, 1.04, 1.04), 0.9);

    assertThat(interval[0]).isEqualTo(0.96);
    assertThat(interval[1]).isEqualTo(1.26);
    assertThat(interval[2]).isCloseTo(1 - 2.0 / 128, within(1e-12));
  }

  @Test
  void tenPairsLeaveOutTheMostExtremeOnEachSide() {
    double[] interval = Stats.medianInterval(values(10, 1, 9, 2, 8, 3, 7, 4, 6, 5), 0.9);

    // [2nd, 9th]: 1 - 2 * (1 + 10) / 1024; [3rd, 8th] would cover only 1 - 2 * 56 / 1024 = 89 %
    assertThat(interval[0]).isEqualTo(2);
    assertThat(interval[1]).isEqualTo(9);
    assertThat(interval[2]).isCloseTo(1 - 22.0 / 1024, within(1e-12));
  }

  @Test
  void fewerThanFivePairsHaveNoNinetyPercentInterval() {
    assertThat(Stats.medianInterval(values(1, 2, 3, 4), 0.9)).isNull();
    assertThat(Stats.medianInterval(values(1, 2, 3, 4, 5), 0.9)).containsExactly(1, 5, 1 - 2.0 / 32);
  }

  @Test
  void theMedianOfAnEvenCountIsTheMeanOfTheMiddleTwo() {
    assertThat(Stats.median(values(4, 1, 3, 2))).isEqualTo(2.5);
  }
}
