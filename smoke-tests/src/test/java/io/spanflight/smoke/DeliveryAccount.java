package io.spanflight.smoke;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The OTLP exporter's final account, from the line it logs when it has stopped (at JVM shutdown):
 * every request it was handed, and how each one ended.
 */
record DeliveryAccount(long produced, long delivered, long droppedQueueFull, long droppedRefused,
    long droppedShutdown, long pending, long retries) {
  private static final Pattern STOPPED = Pattern.compile(
      "Spanflight profiles export to .+? stopped; produced (\\d+), delivered (\\d+), dropped (\\d+) "
          + "\\(queue full (\\d+), refused (\\d+), at shutdown (\\d+)\\), pending (\\d+), retries (\\d+)");

  /** The account in {@code log}, if the exporter's stop line is there. */
  static Optional<DeliveryAccount> in(String log) {
    Matcher m = STOPPED.matcher(log);
    if (!m.find()) {
      return Optional.empty();
    }
    DeliveryAccount account = new DeliveryAccount(number(m, 1), number(m, 2), number(m, 4), number(m, 5),
        number(m, 6), number(m, 7), number(m, 8));
    if (account.dropped() != number(m, 3)) {
      throw new IllegalStateException("the dropped total disagrees with its parts in: " + m.group());
    }
    return Optional.of(account);
  }

  long dropped() {
    return droppedQueueFull + droppedRefused + droppedShutdown;
  }

  /** "queue full 4, refused 0, shutdown 1" */
  String droppedByReason() {
    return "queue full " + droppedQueueFull + ", refused " + droppedRefused + ", shutdown " + droppedShutdown;
  }

  private static long number(Matcher m, int group) {
    return Long.parseLong(m.group(group));
  }
}
