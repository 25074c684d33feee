package io.spanflight.internal.profile;

import java.time.Instant;

/**
 * Wall-clock time in nanoseconds since the epoch, as OTLP wants it.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class EpochClock {
  private EpochClock() {}

  public static long nowNanos() {
    return toNanos(Instant.now());
  }

  public static long toNanos(Instant instant) {
    return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
  }
}
