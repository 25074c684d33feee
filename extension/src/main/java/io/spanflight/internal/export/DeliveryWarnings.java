package io.spanflight.internal.export;

import io.spanflight.internal.logging.ThrottledLogger;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The warnings a {@link DeliveryQueue} repeats while a collector misbehaves: drops, failed sends
 * that will be retried, and partial successes, each kind through its own {@link ThrottledLogger}
 * (once a minute, with the count of those suppressed). Drops for a full queue, after shutdown and
 * for a refusal share one throttle. It also logs, unthrottled, that delivery works again after
 * failures; the other one-off messages (stop, a dead worker) the queue logs itself.
 *
 * <p>Not API: internal to Spanflight.
 */
final class DeliveryWarnings {
  private final Logger logger;
  private final String destination;
  private final Supplier<DeliveryStats> sinceStart;
  private final ThrottledLogger failureLog;
  private final ThrottledLogger dropLog;
  private final ThrottledLogger partialLog;

  /**
   * {@code logger}: the queue's; {@code destination}: its transport's; {@code sinceStart}: its
   * counters, asked when a message reports them.
   */
  DeliveryWarnings(Logger logger, String destination, Supplier<DeliveryStats> sinceStart) {
    this.logger = logger;
    this.destination = destination;
    this.sinceStart = sinceStart;
    this.failureLog = new ThrottledLogger(logger, 1, TimeUnit.MINUTES);
    this.dropLog = new ThrottledLogger(logger, 1, TimeUnit.MINUTES);
    this.partialLog = new ThrottledLogger(logger, 1, TimeUnit.MINUTES);
  }

  /** A request was dropped before any send ended it (queue full, or after shutdown). */
  void dropped(String reason) {
    dropLog.log(Level.WARNING, "Spanflight dropped a profiles request (" + reason + "); since start: " + sinceStart.get(), null);
  }

  /**
   * A send ended with {@code outcome}, its request settled: warns of a partial success, a retry or a
   * refusal ({@code problem} says why, and for a retry when), then says so if delivery is {@code
   * recovered} (it works again after failures).
   */
  void settled(SendOutcome outcome, String problem, boolean recovered) {
    switch (outcome.kind()) {
      case DELIVERED:
        if (outcome.rejectedProfiles() > 0 || !outcome.description().isEmpty()) {
          partialSuccess(outcome);
        }
        if (recovered) {
          logger.info("Spanflight profiles export to " + destination + " delivers again; since start: " + sinceStart.get());
        }
        break;
      case RETRYABLE:
        failureLog.log(Level.WARNING, "Spanflight could not deliver profiles to " + destination + ": " + problem, null);
        break;
      default:
        dropLog.log(Level.WARNING, "Spanflight profiles export to " + destination + " failed: " + problem, null);
    }
  }

  /** A delivered request with profiles rejected, or with a message from the collector. */
  private void partialSuccess(SendOutcome outcome) {
    partialLog.log(
        Level.WARNING,
        "Spanflight profiles export to " + destination + ": partial success, the collector rejected "
            + outcome.rejectedProfiles() + " profiles"
            + (outcome.description().isEmpty() ? "" : ": " + outcome.description()),
        null);
  }
}
