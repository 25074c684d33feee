package io.spanflight.internal.export;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class RetryScheduleTest {
  private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
  private static final long NOW = 1_000 * SECOND;

  private final RetrySchedule schedule =
      new RetrySchedule(new Backoff(SECOND, 30 * SECOND), NOW);

  @Test
  void theFirstSendMayStartAtOnce() {
    assertThat(schedule.nanosUntilNextAttempt(NOW)).isZero();
  }

  @Test
  void eachFailureInARowWaitsTheBackoffOfTheRunSoFar() {
    long first = schedule.failed(NOW);
    assertThat(first).isBetween(SECOND / 2, SECOND - 1);
    assertThat(schedule.nanosUntilNextAttempt(NOW)).isEqualTo(first);

    long second = schedule.failed(NOW + first);
    assertThat(second).isBetween(SECOND, 2 * SECOND - 1);
    assertThat(schedule.nanosUntilNextAttempt(NOW + first)).isEqualTo(second);
  }

  @Test
  void aDeliveryEndsTheRunAndSaysWhetherThereWasOne() {
    assertThat(schedule.delivered()).isFalse();
    schedule.failed(NOW);
    schedule.failed(NOW);

    assertThat(schedule.delivered()).isTrue();
    assertThat(schedule.delivered()).isFalse();
    assertThat(schedule.failed(NOW)).isBetween(SECOND / 2, SECOND - 1);
  }

  @Test
  void aRefusalEndsTheRunSilently() {
    schedule.failed(NOW);
    schedule.failed(NOW);

    schedule.refused();

    assertThat(schedule.delivered()).isFalse();
    assertThat(schedule.failed(NOW)).isBetween(SECOND / 2, SECOND - 1);
  }
}
