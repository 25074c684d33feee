package io.spanflight.internal.profile;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Two intervals take turns; the one handed back is emptied at once, not when it is next used. */
class ProfileCollectorTest {
  private static final SampleType CPU = SampleType.cpuSamples(20_000_000L);
  private final ProfileCollector collector = new ProfileCollector();

  private void sample(String method, long epochNanos) {
    collector.addMethod(CPU, "com.example.Shop", method, "()V", null, null, epochNanos, 1);
  }

  @Test
  void aRecycledIntervalHoldsNothingUntilItIsUsedAgainAndThenOnlyItsNewSamples() {
    int emptyEntries = new ProfileInterval(0).dictionary.entries();
    sample("checkout", 1_000);
    ProfileInterval first = collector.takeInterval();
    assertThat(first.sampleCount()).isEqualTo(1);
    assertThat(first.dictionary.entries()).isGreaterThan(emptyEntries);

    collector.recycle(first);

    assertThat(first.sampleCount()).isZero();
    assertThat(first.dictionary.entries()).isEqualTo(emptyEntries);

    sample("price", 2_000);
    long beforeSecondTake = EpochClock.nowNanos();
    ProfileInterval second = collector.takeInterval(); // the one made at the first take; first is current now
    long afterSecondTake = EpochClock.nowNanos();
    sample("refund", 3_000);
    ProfileInterval third = collector.takeInterval();

    assertThat(second).isNotSameAs(first);
    assertThat(second.sampleCount()).isEqualTo(1);
    assertThat(third).isSameAs(first);
    assertThat(third.sampleCount()).isEqualTo(1);
    assertThat(third.startEpochNanos).isBetween(beforeSecondTake, afterSecondTake); // started when it became current
    assertThat(third.dictionary.strings).anyMatch(s -> s.contains("refund"))
        .noneMatch(s -> s.contains("checkout") || s.contains("price"));
  }

  @Test
  void anIntervalWhoseStacksGrewPastTheBoundIsNotKeptForReuse() {
    sample("checkout", 1_000);
    ProfileInterval burst = collector.takeInterval();
    int[] deep = new int[64];
    for (int i = 0; i * deep.length <= ProfileInterval.MAX_REUSED_LOCATIONS; i++) {
      deep[0] = i + 1; // distinct stacks: 4 MB of locations and a little more, in under 2^16 entries
      burst.dictionary.stack(deep);
    }
    assertThat(burst.dictionary.entries()).isLessThanOrEqualTo(ProfileInterval.MAX_REUSED_ENTRIES);

    collector.recycle(burst);
    collector.takeInterval();
    ProfileInterval next = collector.takeInterval();

    assertThat(burst.reusable()).isFalse();
    assertThat(burst.sampleCount()).isEqualTo(1); // not emptied: it was let go whole
    assertThat(next).isNotSameAs(burst);
  }
}
