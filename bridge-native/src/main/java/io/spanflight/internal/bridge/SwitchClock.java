package io.spanflight.internal.bridge;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Which clock the native switches stamp their ring entries with, and the way back from it to
 * {@link System#nanoTime()}: TSC ticks (one {@code rdtsc}, about 10 ns, instead of a 25 ns
 * {@code clock_gettime}) only while they can be trusted, {@code CLOCK_MONOTONIC} otherwise.
 *
 * <p>Ticks are trusted only if the CPU has an invariant TSC, the kernel's current clocksource is
 * {@code tsc} (it keeps {@code tsc} only after finding it synchronised across CPUs; checked again
 * every second), and the {@link TickClockMap} fitted to the pairs read after every drain call
 * vouches for them. Writers use ticks from the moment the map first fits; if the map stops
 * fitting they go back to the monotonic clock (and come back once a fresh window fits); after
 * {@value #MAX_FAILURES} such failures, or once the clocksource is not {@code tsc}, they stay on
 * the monotonic clock. Tick entries the map cannot vouch for come out of {@link #toNanos} as
 * {@link TickClockMap#UNKNOWN}: the drain reports them as lost, so their stretch is unknown.
 *
 * <p>Called only by the (serialised) drain. Not API: internal to Spanflight.
 */
final class SwitchClock {
  /** The native side, replaceable in tests. */
  interface Ticks {
    boolean invariant();

    void use(boolean on);

    /** Fills {ticks, nanoTime, uncertainty ns}; false where there is no TSC. */
    boolean pair(long[] out);
  }

  static final byte MONOTONIC = 0; // SF_CLOCK_MONOTONIC
  static final byte TICKS = 1; // SF_CLOCK_TICKS
  static final Path CLOCKSOURCE =
      Paths.get("/sys/devices/system/clocksource/clocksource0/current_clocksource");
  static final long RECHECK_NANOS = 1_000_000_000L;
  static final int MAX_FAILURES = 3;

  private static final Logger logger = Logger.getLogger("io.spanflight");

  private final Ticks ticks;
  private final Supplier<String> clocksource;
  private final LongSupplier nanoTime;
  private final TickClockMap map = new TickClockMap();
  private final long[] pair = new long[3];
  private boolean eligible;
  private boolean using;
  private int failures;
  private long lastCheck;

  SwitchClock(Ticks ticks, Supplier<String> clocksource, LongSupplier nanoTime) {
    this.ticks = ticks;
    this.clocksource = clocksource;
    this.nanoTime = nanoTime;
    this.lastCheck = nanoTime.getAsLong();
    String source = clocksource.get();
    if (!ticks.invariant()) {
      logger.fine("Spanflight times switches with CLOCK_MONOTONIC: no invariant TSC");
    } else if (!"tsc".equals(source)) {
      logger.info("Spanflight times switches with CLOCK_MONOTONIC: the kernel's clocksource is "
          + source + ", not tsc");
    } else {
      eligible = true;
    }
    ticks.use(false);
  }

  /** The native bridge's clock: the library's TSC, the kernel's clocksource file. */
  static SwitchClock forNative() {
    return new SwitchClock(
        new Ticks() {
          @Override
          public boolean invariant() {
            return NativeContextBridge.ticksInvariant0();
          }

          @Override
          public void use(boolean on) {
            NativeContextBridge.useTicks0(on);
          }

          @Override
          public boolean pair(long[] out) {
            return NativeContextBridge.clockPair0(out);
          }
        },
        () -> readClocksource(CLOCKSOURCE),
        System::nanoTime);
  }

  static String readClocksource(Path file) {
    try {
      return new String(Files.readAllBytes(file), java.nio.charset.StandardCharsets.US_ASCII).trim();
    } catch (IOException | SecurityException e) {
      return "unreadable (" + e.getClass().getSimpleName() + ")";
    }
  }

  /**
   * Reads one pair and refits; call after each drain call and before converting what it copied,
   * so that every tick to convert lies before the newest pair.
   */
  void calibrate() {
    if (!eligible) {
      return;
    }
    long now = nanoTime.getAsLong();
    if (now - lastCheck >= RECHECK_NANOS) {
      lastCheck = now;
      String source = clocksource.get();
      if (!"tsc".equals(source)) {
        stop("the kernel's clocksource is now " + source + ", not tsc");
        return;
      }
    }
    if (!ticks.pair(pair)) {
      stop("no TSC to read");
      return;
    }
    map.add(pair[0], pair[1], pair[2]);
    if (map.fits()) {
      if (!using) {
        using = true;
        ticks.use(true);
      }
    } else if (using) {
      using = false;
      ticks.use(false);
      long residual = map.maxResidualNanos();
      map.reset();
      if (++failures >= MAX_FAILURES) {
        stop("the TSC stopped following CLOCK_MONOTONIC " + failures + " times (last residual "
            + residual + " ns)");
      }
    }
  }

  /** A ring entry's time on the nanoTime clock, or {@link TickClockMap#UNKNOWN}. */
  long toNanos(long time, byte clock) {
    if (clock == MONOTONIC) {
      return time;
    }
    return clock == TICKS ? map.toNanos(time) : TickClockMap.UNKNOWN;
  }

  /** Whether switches are currently stamped with ticks. */
  boolean usingTicks() {
    return using;
  }

  /** Whether ticks may still be used at all. */
  boolean eligible() {
    return eligible;
  }

  TickClockMap map() {
    return map;
  }

  private void stop(String why) {
    eligible = false;
    using = false;
    ticks.use(false);
    map.reset();
    logger.log(Level.INFO, "Spanflight times switches with CLOCK_MONOTONIC from now on: {0}", why);
  }
}
