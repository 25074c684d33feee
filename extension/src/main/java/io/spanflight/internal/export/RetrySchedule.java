package io.spanflight.internal.export;

/**
 * When a {@link DeliveryQueue} may start its next send. Sends follow each other at once while the
 * collector answers; after a retryable failure the next one waits {@link Backoff} of the number of
 * failures in a row. A delivery ends the run of failures and says whether there was one (the queue
 * logs the recovery); a refusal ends it too, silently: the collector answered, the request is
 * dropped, and the next request need not wait.
 *
 * <p>Not thread-safe: the queue guards it with its lock.
 *
 * <p>Not API: internal to Spanflight.
 */
final class RetrySchedule {
  private final Backoff backoff;
  private int consecutiveFailures;
  private long nextAttemptNanos;

  /** {@code nowNanos}: {@link System#nanoTime()} now; the first send may start at once. */
  RetrySchedule(Backoff backoff, long nowNanos) {
    this.backoff = backoff;
    this.nextAttemptNanos = nowNanos;
  }

  /** How long from {@code nowNanos} until the next send may start; zero or less: now. */
  long nanosUntilNextAttempt(long nowNanos) {
    return nextAttemptNanos - nowNanos;
  }

  /** A send was delivered; whether it ended a run of failures. */
  boolean delivered() {
    boolean recovered = consecutiveFailures > 0;
    consecutiveFailures = 0;
    return recovered;
  }

  /** A send failed at {@code nowNanos} and will be retried; returns the wait before the next. */
  long failed(long nowNanos) {
    consecutiveFailures++;
    long delay = backoff.delayNanos(consecutiveFailures);
    nextAttemptNanos = nowNanos + delay;
    return delay;
  }

  /** A send was refused for good (not retryable): the run of failures ends, without a wait. */
  void refused() {
    consecutiveFailures = 0;
  }
}
