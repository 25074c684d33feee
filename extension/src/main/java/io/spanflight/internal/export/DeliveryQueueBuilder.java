package io.spanflight.internal.export;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;

/**
 * Builds a {@link DeliveryQueue}; every setting has a {@code DEFAULT_*} on {@link DeliveryQueue}.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class DeliveryQueueBuilder {
  private static final Logger logger = Logger.getLogger(DeliveryQueueBuilder.class.getName());

  private final ProfileTransport transport;
  private int capacity = DeliveryQueue.DEFAULT_CAPACITY;
  private Duration initialBackoff = DeliveryQueue.DEFAULT_INITIAL_BACKOFF;
  private Duration maxBackoff = DeliveryQueue.DEFAULT_MAX_BACKOFF;
  private Duration attemptTimeout = DeliveryQueue.DEFAULT_ATTEMPT_TIMEOUT;
  private Duration shutdownTimeout = DeliveryQueue.DEFAULT_SHUTDOWN_TIMEOUT;

  DeliveryQueueBuilder(ProfileTransport transport) {
    this.transport = Objects.requireNonNull(transport, "transport");
  }

  /** Requests waiting or in flight at most (>= 1); when full the oldest waiting one is dropped. */
  public DeliveryQueueBuilder setCapacity(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be at least 1, is " + capacity);
    }
    this.capacity = capacity;
    return this;
  }

  /** The wait after the first failure in a row (> 0); it doubles with each further one. */
  public DeliveryQueueBuilder setInitialBackoff(long amount, TimeUnit unit) {
    return setInitialBackoff(Duration.ofNanos(unit.toNanos(amount)));
  }

  public DeliveryQueueBuilder setInitialBackoff(Duration initialBackoff) {
    this.initialBackoff = positive(initialBackoff, "initialBackoff");
    return this;
  }

  /** The longest wait between two attempts (> 0). */
  public DeliveryQueueBuilder setMaxBackoff(long amount, TimeUnit unit) {
    return setMaxBackoff(Duration.ofNanos(unit.toNanos(amount)));
  }

  public DeliveryQueueBuilder setMaxBackoff(Duration maxBackoff) {
    this.maxBackoff = positive(maxBackoff, "maxBackoff");
    return this;
  }

  /**
   * How long to wait for one attempt's answer before counting it as retryable (> 0); should exceed
   * the transport's own timeout, which normally ends the attempt first.
   */
  public DeliveryQueueBuilder setAttemptTimeout(long amount, TimeUnit unit) {
    return setAttemptTimeout(Duration.ofNanos(unit.toNanos(amount)));
  }

  public DeliveryQueueBuilder setAttemptTimeout(Duration attemptTimeout) {
    this.attemptTimeout = positive(attemptTimeout, "attemptTimeout");
    return this;
  }

  /** How long shutdown may keep delivering what is queued (>= 0). */
  public DeliveryQueueBuilder setShutdownTimeout(long amount, TimeUnit unit) {
    return setShutdownTimeout(Duration.ofNanos(unit.toNanos(amount)));
  }

  public DeliveryQueueBuilder setShutdownTimeout(Duration shutdownTimeout) {
    Objects.requireNonNull(shutdownTimeout, "shutdownTimeout");
    if (shutdownTimeout.isNegative()) {
      throw new IllegalArgumentException("shutdownTimeout must not be negative, is " + shutdownTimeout);
    }
    this.shutdownTimeout = shutdownTimeout;
    return this;
  }

  /** Builds the queue and starts its worker thread. */
  public DeliveryQueue build() {
    Duration max = maxBackoff;
    if (max.compareTo(initialBackoff) < 0) {
      logger.warning(
          "Spanflight delivery: maxBackoff " + max + " is below initialBackoff " + initialBackoff
              + "; using " + initialBackoff + " for both");
      max = initialBackoff;
    }
    return new DeliveryQueue(transport, capacity, initialBackoff, max, attemptTimeout, shutdownTimeout)
        .start();
  }

  private static Duration positive(Duration d, String name) {
    Objects.requireNonNull(d, name);
    if (d.isZero() || d.isNegative()) {
      throw new IllegalArgumentException(name + " must be positive, is " + d);
    }
    return d;
  }
}
