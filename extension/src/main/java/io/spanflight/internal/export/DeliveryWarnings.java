package io.spanflight.internal.export;

import io.spanflight.internal.logging.ThrottledLogger;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The warnings a {@link DeliveryQueue} repeats while a collector misbehaves: drops, failed sends
 * that will be retried, and partial successes, each kind through its own {@link ThrottledLogger}
 * (once a minute, with the count of those suppressed). Drops for a full queue, after shutdown and
 * for a refusal share one throttle. One-off messages (recovery, stop) the queue logs itself.
 *
 * <p>Not API: internal to Spanflight.
 */
final class DeliveryWarnings {
  private final String destination;
  private final ThrottledLogger failureLog;
  private final ThrottledLogger dropLog;
  private final ThrottledLogger partialLog;

  /** {@code logger}: the queue's; {@code destination}: its transport's. */
  DeliveryWarnings(Logger logger, String destination) {
    this.destination = destination;
    this.failureLog = new ThrottledLogger(logger, 1, TimeUnit.MINUTES);
    this.dropLog = new ThrottledLogger(logger, 1, TimeUnit.MINUTES);
    this.partialLog = new ThrottledLogger(logger, 1, TimeUnit.MINUTES);
  }

  /** A request was dropped before any send ended it (queue full, or after shutdown). */
  void dropped(String reason, DeliveryStats sinceStart) {
    dropLog.log(Level.WARNING, "Spanflight dropped a profiles request (" + reason + "); since start: " + sinceStart, null);
  }

  /** A send failed and its request will be retried; {@code problem} says why and when. */
  void retrying(String problem) {
    failureLog.log(Level.WARNING, "Spanflight could not deliver profiles to " + destination + ": " + problem, null);
  }

  /** The collector refused a request for good; {@code problem} says why. */
  void refused(String problem) {
    dropLog.log(Level.WARNING, "Spanflight profiles export to " + destination + " failed: " + problem, null);
  }

  /** A delivered request with profiles rejected, or with a message from the collector. */
  void partialSuccess(SendOutcome outcome) {
    partialLog.log(
        Level.WARNING,
        "Spanflight profiles export to " + destination + ": partial success, the collector rejected "
            + outcome.rejectedProfiles() + " profiles"
            + (outcome.description().isEmpty() ? "" : ": " + outcome.description()),
        null);
  }
}
