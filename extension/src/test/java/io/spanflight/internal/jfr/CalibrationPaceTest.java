package io.spanflight.internal.jfr;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** A run commits calibrations each second until the stream delivered five, then one per 10 s. */
class CalibrationPaceTest {
  private static final long SECOND = 1_000_000_000L;

  private final AtomicLong delivered = new AtomicLong(7); // an earlier run's calibrations
  private final AtomicLong commits = new AtomicLong();
  private final CalibrationPace pace = new CalibrationPace(delivered::get, commits::incrementAndGet);

  @Test
  void commitsEverySecondUntilTheRunHasFiveDelivered() {
    long now = 100 * SECOND;
    for (int second = 0; second < 5; second++, now += SECOND) {
      pace.commitIfDue(now);
      delivered.incrementAndGet(); // the stream delivers each one before the next second
    }
    assertThat(commits).hasValue(5);
    pace.commitIfDue(now);
    assertThat(commits).as("delivered five: the trickle").hasValue(5);
  }

  @Test
  void keepsCommittingWhileTheStreamHasNotDelivered() {
    for (int second = 0; second < 8; second++) {
      pace.commitIfDue(100 * SECOND + second * SECOND);
    }
    assertThat(commits).hasValue(8);
  }

  @Test
  void thenCommitsOnceEveryTenSeconds() {
    delivered.addAndGet(CalibrationPace.CALIBRATIONS);
    long start = 100 * SECOND;
    for (long now = start; now < start + 30 * SECOND; now += SECOND) {
      pace.commitIfDue(now);
    }
    assertThat(commits).as("at 100 s, 110 s, 120 s").hasValue(3);
  }
}
