package io.spanflight.internal.export;

import java.util.concurrent.ThreadLocalRandom;

/**
 * Exponential backoff with "equal jitter": after the n-th consecutive failure the wait is
 * {@code base = min(max, initial * 2^(n-1))}, drawn uniformly from {@code [base/2, base)}, so
 * exporters that failed together do not come back together.
 *
 * <p>Not API: internal to Spanflight.
 */
final class Backoff {
  private final long initialNanos;
  private final long maxNanos;

  Backoff(long initialNanos, long maxNanos) {
    this.initialNanos = initialNanos;
    this.maxNanos = maxNanos;
  }

  /** The wait before the next attempt after {@code failures} (>= 1) failures in a row. */
  long delayNanos(int failures) {
    return delayNanos(failures, ThreadLocalRandom.current().nextDouble());
  }

  /** As {@link #delayNanos(int)} with {@code random} in [0, 1) as the jitter. */
  long delayNanos(int failures, double random) {
    int doublings = Math.max(0, Math.min(failures - 1, 62));
    long base = initialNanos;
    for (int i = 0; i < doublings && base < maxNanos; i++) {
      base *= 2;
    }
    base = Math.min(base, maxNanos);
    long half = base / 2;
    return half + (long) (random * (base - half));
  }
}
