package io.spanflight.internal.export;

/**
 * The counts of a {@link DeliveryQueue}, snapshot as {@link DeliveryStats}. Each request is
 * counted once when produced and once more when it ends, as delivered or as dropped for one
 * reason; with the pending count the queue passes in, every snapshot satisfies {@code produced ==
 * delivered + dropped + pending}.
 *
 * <p>Not thread-safe: the queue guards it with its lock.
 *
 * <p>Not API: internal to Spanflight.
 */
final class DeliveryCounters {
  private long produced;
  private long delivered;
  private long droppedQueueFull;
  private long droppedRefused;
  private long droppedAtShutdown;
  private long retries;
  private long rejectedProfiles;
  private int maxPending;

  void produced() {
    produced++;
  }

  /** Delivered, fully or partially: the collector rejected {@code rejectedProfiles} of it. */
  void delivered(long rejectedProfiles) {
    delivered++;
    this.rejectedProfiles += rejectedProfiles;
  }

  void droppedQueueFull() {
    droppedQueueFull++;
  }

  void droppedRefused() {
    droppedRefused++;
  }

  void droppedAtShutdown(int requests) {
    droppedAtShutdown += requests;
  }

  /** A send that is not its request's first. */
  void retried() {
    retries++;
  }

  /** Notes how many requests are pending now, for the maximum. */
  void pendingNow(int pending) {
    maxPending = Math.max(maxPending, pending);
  }

  DeliveryStats snapshot(int pending) {
    return new DeliveryStats(
        produced,
        delivered,
        droppedQueueFull,
        droppedRefused,
        droppedAtShutdown,
        retries,
        rejectedProfiles,
        pending,
        maxPending);
  }
}
