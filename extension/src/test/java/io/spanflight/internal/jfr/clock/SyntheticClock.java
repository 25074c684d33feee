package io.spanflight.internal.jfr.clock;

/**
 * A synthetic JVM clock for tests: ticks at {@code nanosPerTick} (with drift), a known origin; and
 * calibration instants as a run commits them.
 */
public final class SyntheticClock {
  public final double nanosPerTick;
  public final long originNanos = 7_000_000_000_000L;
  public final long originTicks = 123_456_789L;

  public SyntheticClock(double nanosPerTick) {
    this.nanosPerTick = nanosPerTick;
  }

  public long ticksAt(long nanos) {
    return originTicks + Math.round((nanos - originNanos) / nanosPerTick);
  }

  public long nanosAt(long ticks) {
    return originNanos + Math.round((ticks - originTicks) * nanosPerTick);
  }

  /** Calibration instants as a run commits them: once a second for 5 s, then every 10 s. */
  public static long[] calibrationInstants(long originNanos, int count) {
    long[] at = new long[count];
    for (int i = 0; i < count; i++) {
      long seconds = i < 5 ? i : 4 + 10L * (i - 4);
      at[i] = originNanos + seconds * 1_000_000_000L;
    }
    return at;
  }
}
