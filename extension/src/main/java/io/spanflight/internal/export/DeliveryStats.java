package io.spanflight.internal.export;

/**
 * A consistent snapshot of a {@link DeliveryQueue}'s counters. Every request produced is, at any
 * instant, exactly one of delivered, dropped or pending: {@code produced == delivered + dropped +
 * pending}.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class DeliveryStats {
  private final long produced;
  private final long delivered;
  private final long droppedQueueFull;
  private final long droppedRefused;
  private final long droppedAtShutdown;
  private final long retries;
  private final long rejectedProfiles;
  private final int pending;
  private final int maxPending;

  DeliveryStats(
      long produced,
      long delivered,
      long droppedQueueFull,
      long droppedRefused,
      long droppedAtShutdown,
      long retries,
      long rejectedProfiles,
      int pending,
      int maxPending) {
    this.produced = produced;
    this.delivered = delivered;
    this.droppedQueueFull = droppedQueueFull;
    this.droppedRefused = droppedRefused;
    this.droppedAtShutdown = droppedAtShutdown;
    this.retries = retries;
    this.rejectedProfiles = rejectedProfiles;
    this.pending = pending;
    this.maxPending = maxPending;
  }

  /** Requests handed to the queue. */
  public long produced() {
    return produced;
  }

  /** Requests the collector accepted (fully or partially). */
  public long delivered() {
    return delivered;
  }

  /** Requests given up on, for whatever reason. */
  public long dropped() {
    return droppedQueueFull + droppedRefused + droppedAtShutdown;
  }

  /** Dropped to make room: the queue was full. */
  public long droppedQueueFull() {
    return droppedQueueFull;
  }

  /** Dropped because the collector refused them with a non-retryable status. */
  public long droppedRefused() {
    return droppedRefused;
  }

  /** Dropped because shutdown's flush time ran out (or they came after it). */
  public long droppedAtShutdown() {
    return droppedAtShutdown;
  }

  /** Attempts beyond each request's first (the sender's own in-call retries not included). */
  public long retries() {
    return retries;
  }

  /** Profiles the collector reported as rejected in partial successes. */
  public long rejectedProfiles() {
    return rejectedProfiles;
  }

  /** Requests waiting or in flight now. */
  public int pending() {
    return pending;
  }

  /** The most requests ever pending at once (never above the queue's capacity). */
  public int maxPending() {
    return maxPending;
  }

  @Override
  public String toString() {
    return "produced "
        + produced
        + ", delivered "
        + delivered
        + ", dropped "
        + dropped()
        + " (queue full "
        + droppedQueueFull
        + ", refused "
        + droppedRefused
        + ", at shutdown "
        + droppedAtShutdown
        + "), pending "
        + pending
        + ", retries "
        + retries
        + ", profiles rejected by the collector "
        + rejectedProfiles;
  }
}
