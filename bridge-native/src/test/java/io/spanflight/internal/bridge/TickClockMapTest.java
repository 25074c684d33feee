package io.spanflight.internal.bridge;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** The tick-to-nanoTime line against a synthetic TSC with a known rate and offset. */
class TickClockMapTest {
  /** 2.596126 GHz, as on the 2-core VM; the TSC started long before the monotonic clock's zero. */
  static final double TICKS_PER_NANO = 2.596126;

  static final long TICK_OFFSET = 987_654_321_000L;
  static final long DRAIN_NANOS = 10_000_000;

  private final Random random = new Random(42);
  private final TickClockMap map = new TickClockMap();

  static long tickAt(long nanos) {
    return TICK_OFFSET + Math.round(nanos * TICKS_PER_NANO);
  }

  /** A pair read at {@code nanos}, its monotonic midpoint off by up to +-10 ns. */
  private boolean addPairAt(long nanos) {
    long noise = random.nextInt(21) - 10;
    return map.add(tickAt(nanos), nanos + noise, 40);
  }

  private void calibrate(long from, int pairs) {
    for (int i = 0; i < pairs; i++) {
      assertThat(addPairAt(from + i * DRAIN_NANOS)).isTrue();
    }
  }

  @Test
  void mapsTicksBetweenPairsToWithinTwentyNanoseconds() {
    long start = 5_000_000_000L;
    calibrate(start, TickClockMap.WINDOW + 5);
    long first = start + 5 * DRAIN_NANOS;
    long last = start + (TickClockMap.WINDOW + 4) * DRAIN_NANOS;

    assertThat(map.fits()).isTrue();
    assertThat(map.slope()).isCloseTo(1 / TICKS_PER_NANO, org.assertj.core.data.Offset.offset(1e-7 / TICKS_PER_NANO));
    for (long nanos = first; nanos <= last; nanos += 123_457) {
      assertThat(map.toNanos(tickAt(nanos))).isCloseTo(nanos, org.assertj.core.data.Offset.offset(20L));
    }
  }

  @Test
  void mapsNothingBeforeEnoughPairs() {
    calibrate(0, TickClockMap.MIN_PAIRS - 1);
    assertThat(map.fits()).isFalse();
    assertThat(map.toNanos(tickAt(DRAIN_NANOS))).isEqualTo(TickClockMap.UNKNOWN);

    assertThat(addPairAt((TickClockMap.MIN_PAIRS - 1) * DRAIN_NANOS)).isTrue();
    assertThat(map.toNanos(tickAt(DRAIN_NANOS))).isCloseTo(DRAIN_NANOS, org.assertj.core.data.Offset.offset(20L));
  }

  @Test
  void neverExtrapolates() {
    calibrate(1_000_000_000L, TickClockMap.WINDOW + 1); // the oldest pair slid out
    long oldest = 1_000_000_000L + DRAIN_NANOS;
    long newest = 1_000_000_000L + TickClockMap.WINDOW * DRAIN_NANOS;

    assertThat(map.toNanos(tickAt(oldest - 1))).isEqualTo(TickClockMap.UNKNOWN);
    assertThat(map.toNanos(tickAt(oldest))).isNotEqualTo(TickClockMap.UNKNOWN);
    assertThat(map.toNanos(tickAt(newest + TickClockMap.SLACK_NANOS / 2))).isNotEqualTo(TickClockMap.UNKNOWN);
    assertThat(map.toNanos(tickAt(newest + 2 * TickClockMap.SLACK_NANOS))).isEqualTo(TickClockMap.UNKNOWN);
  }

  @Test
  void aPairOffTheLineMakesEveryTickUnknownUntilItLeavesTheWindow() {
    calibrate(0, TickClockMap.MIN_PAIRS + 2);
    long at = (TickClockMap.MIN_PAIRS + 2) * DRAIN_NANOS;
    // Read with a small uncertainty, yet 1 us away from where the TSC says it should be.
    assertThat(map.add(tickAt(at), at + 1_000, 40)).isTrue();

    assertThat(map.fits()).isFalse();
    assertThat(map.maxResidualNanos()).isGreaterThan(TickClockMap.MAX_RESIDUAL_NANOS);
    assertThat(map.toNanos(tickAt(at - DRAIN_NANOS / 2))).isEqualTo(TickClockMap.UNKNOWN);

    calibrate(at + DRAIN_NANOS, TickClockMap.WINDOW - 1);
    assertThat(map.fits()).as("the bad pair is still in the window").isFalse();
    assertThat(addPairAt(at + TickClockMap.WINDOW * DRAIN_NANOS)).isTrue();
    assertThat(map.fits()).isTrue();
  }

  @Test
  void aRateChangeInsideTheWindowIsCaught() {
    calibrate(0, TickClockMap.WINDOW / 2);
    // From here CLOCK_MONOTONIC runs 500 ppm fast against the TSC (an NTP slew at its limit).
    long bend = (TickClockMap.WINDOW / 2) * DRAIN_NANOS;
    boolean everFit = true;
    for (int i = 0; i < TickClockMap.WINDOW / 2; i++) {
      long tsc = bend + i * DRAIN_NANOS;
      map.add(tickAt(tsc), tsc + Math.round((tsc - bend) * 500e-6), 40);
      everFit &= map.fits();
    }
    assertThat(everFit).isFalse();
    assertThat(map.fits()).isFalse();
  }

  @Test
  void refusesUncertainOrOutOfOrderPairs() {
    calibrate(0, TickClockMap.MIN_PAIRS);
    long at = TickClockMap.MIN_PAIRS * DRAIN_NANOS;
    assertThat(map.add(tickAt(at), at + 50_000, TickClockMap.MAX_PAIR_UNCERTAINTY_NANOS + 1)).isFalse();
    assertThat(map.add(tickAt(at - 2 * DRAIN_NANOS), at, 40)).isFalse();
    assertThat(map.fits()).isTrue();
  }

  @Test
  void resetForgetsEveryPair() {
    calibrate(0, TickClockMap.MIN_PAIRS + 1);
    map.reset();
    assertThat(map.fits()).isFalse();
    assertThat(map.toNanos(tickAt(DRAIN_NANOS))).isEqualTo(TickClockMap.UNKNOWN);
  }
}
