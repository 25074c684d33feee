package io.spanflight.internal.export;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class BackoffTest {
  private final Backoff backoff = new Backoff(TimeUnit.SECONDS.toNanos(1), TimeUnit.SECONDS.toNanos(30));

  @Test
  void doublesPerFailureUpToTheMaximumWithinHalfToFullOfTheBase() {
    assertThat(backoff.delayNanos(1, 0.0)).isEqualTo(TimeUnit.MILLISECONDS.toNanos(500));
    assertThat(backoff.delayNanos(1, 0.999)).isLessThan(TimeUnit.SECONDS.toNanos(1));
    assertThat(backoff.delayNanos(2, 0.0)).isEqualTo(TimeUnit.SECONDS.toNanos(1));
    assertThat(backoff.delayNanos(4, 0.0)).isEqualTo(TimeUnit.SECONDS.toNanos(4));
    assertThat(backoff.delayNanos(6, 0.0)).isEqualTo(TimeUnit.SECONDS.toNanos(15));
    assertThat(backoff.delayNanos(1000, 0.0)).isEqualTo(TimeUnit.SECONDS.toNanos(15));
    assertThat(backoff.delayNanos(1000, 0.999)).isLessThan(TimeUnit.SECONDS.toNanos(30));
  }

  @Test
  void jitterSpreadsTheWaits() {
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (int i = 0; i < 1000; i++) {
      long d = backoff.delayNanos(3);
      min = Math.min(min, d);
      max = Math.max(max, d);
    }
    assertThat(min).isGreaterThanOrEqualTo(TimeUnit.SECONDS.toNanos(2));
    assertThat(max).isLessThan(TimeUnit.SECONDS.toNanos(4));
    assertThat(max - min).isGreaterThan(TimeUnit.SECONDS.toNanos(1));
  }
}
