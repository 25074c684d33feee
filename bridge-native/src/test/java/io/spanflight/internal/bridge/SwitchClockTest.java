package io.spanflight.internal.bridge;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** When switches get TSC ticks and when they fall back, against a fake TSC and clocksource. */
class SwitchClockTest {
  /** A TSC at 2.5 ticks/ns; {@code skew} ns is added to the monotonic half of the next pairs. */
  static final class FakeTicks implements SwitchClock.Ticks {
    boolean invariant = true;
    long now = 1_000_000_000L;
    long skew;
    int pairsRead;
    final List<Boolean> uses = new ArrayList<>();

    @Override
    public boolean invariant() {
      return invariant;
    }

    @Override
    public void use(boolean on) {
      uses.add(on);
    }

    @Override
    public boolean pair(long[] out) {
      pairsRead++;
      out[0] = 7_000_000L + now * 5 / 2;
      out[1] = now + skew;
      out[2] = 30;
      return true;
    }

    boolean using() {
      return !uses.isEmpty() && uses.get(uses.size() - 1);
    }
  }

  private final FakeTicks ticks = new FakeTicks();
  private String clocksource = "tsc";

  private SwitchClock clock() {
    return new SwitchClock(ticks, () -> clocksource, () -> ticks.now);
  }

  private void drains(SwitchClock clock, int count) {
    for (int i = 0; i < count; i++) {
      ticks.now += 10_000_000;
      clock.calibrate();
    }
  }

  @Test
  void usesTicksOnceTheMapFitsAndConvertsThem() {
    SwitchClock clock = clock();
    drains(clock, TickClockMap.MIN_PAIRS - 1);
    assertThat(ticks.using()).isFalse();
    drains(clock, 1);
    assertThat(ticks.using()).isTrue();
    long tick = 7_000_000L + (ticks.now - 15_000_000) * 5 / 2;
    assertThat(clock.toNanos(tick, SwitchClock.TICKS)).isEqualTo(ticks.now - 15_000_000);
    assertThat(clock.toNanos(12345, SwitchClock.MONOTONIC)).isEqualTo(12345);
  }

  @Test
  void fallsBackWhereTheClocksourceIsNotTsc() {
    clocksource = "kvm-clock";
    SwitchClock clock = clock();
    drains(clock, 3 * TickClockMap.WINDOW);
    assertThat(ticks.uses).containsOnly(false);
    assertThat(ticks.pairsRead).isZero();
    assertThat(clock.eligible()).isFalse();
    assertThat(clock.toNanos(7_000_000_000L, SwitchClock.TICKS)).isEqualTo(TickClockMap.UNKNOWN);
  }

  @Test
  void fallsBackWithoutAnInvariantTsc() {
    ticks.invariant = false;
    SwitchClock clock = clock();
    drains(clock, 3 * TickClockMap.WINDOW);
    assertThat(ticks.uses).containsOnly(false);
  }

  @Test
  void fallsBackForGoodWhenTheClocksourceChangesAwayFromTsc() {
    SwitchClock clock = clock();
    drains(clock, TickClockMap.MIN_PAIRS);
    assertThat(ticks.using()).isTrue();
    long tick = 7_000_000L + (ticks.now - 5_000_000) * 5 / 2;

    clocksource = "hpet"; // the kernel's watchdog found the TSC unstable
    drains(clock, (int) (SwitchClock.RECHECK_NANOS / 10_000_000));
    assertThat(ticks.using()).isFalse();
    assertThat(clock.eligible()).isFalse();
    assertThat(clock.toNanos(tick, SwitchClock.TICKS)).isEqualTo(TickClockMap.UNKNOWN);
    clocksource = "tsc";
    drains(clock, 3 * TickClockMap.WINDOW);
    assertThat(ticks.using()).isFalse();
  }

  @Test
  void aResidualTooLargeStopsTicksAndLeavesTheirStretchUnknown() {
    SwitchClock clock = clock();
    drains(clock, TickClockMap.MIN_PAIRS);
    long tick = 7_000_000L + (ticks.now - 5_000_000) * 5 / 2;

    ticks.skew = 2 * TickClockMap.MAX_RESIDUAL_NANOS + 100;
    drains(clock, 1);
    assertThat(ticks.using()).isFalse();
    assertThat(clock.toNanos(tick, SwitchClock.TICKS)).isEqualTo(TickClockMap.UNKNOWN);

    // A fresh window that fits brings ticks back; repeated failures end them for good.
    drains(clock, TickClockMap.MIN_PAIRS);
    assertThat(ticks.using()).isTrue();
    for (int failure = 2; failure <= SwitchClock.MAX_FAILURES; failure++) {
      ticks.skew += 2 * TickClockMap.MAX_RESIDUAL_NANOS + 100;
      drains(clock, 1);
      drains(clock, TickClockMap.MIN_PAIRS);
    }
    assertThat(clock.eligible()).isFalse();
    assertThat(ticks.using()).isFalse();
  }

  @Test
  void readsTheClocksourceFile(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("current_clocksource");
    Files.writeString(file, "tsc\n");
    assertThat(SwitchClock.readClocksource(file)).isEqualTo("tsc");
    Files.writeString(file, "hpet\n");
    assertThat(SwitchClock.readClocksource(file)).isEqualTo("hpet");
    assertThat(SwitchClock.readClocksource(dir.resolve("missing"))).startsWith("unreadable");
  }
}
