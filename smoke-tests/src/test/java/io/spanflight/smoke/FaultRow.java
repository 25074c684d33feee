package io.spanflight.smoke;

import io.spanflight.smoke.harness.PacedLoad;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one fault case measured: the app's latencies, the exporter's final account (null when its
 * stop line is missing), the most requests pending in any self-metrics reading, and whether
 * delivery resumed (null: the fault lasted to the end).
 */
record FaultRow(String fault, PacedLoad.Latencies latencies, double loadSeconds, DeliveryAccount account,
    long maxPending, int pendingReadings, Boolean resumed, int warmUpFailures, String problem, String logTail,
    long targetAccepted, String metricsAtExit, int retryWarnings, int stackTraceLines) {
  private static final Pattern PROBLEM =
      Pattern.compile("Spanflight could not deliver profiles to \\S+ \\S+ \\S+: (.*?); retrying in", Pattern.DOTALL);

  /**
   * This row with the number of profiles requests the target accepted (received, or answered
   * with 2xx); -1 in rows where it was not counted.
   */
  FaultRow withTargetAccepted(long accepted) {
    return new FaultRow(fault, latencies, loadSeconds, account, maxPending, pendingReadings, resumed, warmUpFailures,
        problem, logTail, accepted, metricsAtExit, retryWarnings, stackTraceLines);
  }

  /** The first delivery failure the exporter logged, or "" when none. */
  static String firstProblem(String log) {
    Matcher m = PROBLEM.matcher(log);
    return m.find() ? m.group(1).replaceAll("\\s+", " ") : "";
  }

  /** How many times the exporter warned that it could not deliver and would retry. */
  static int retryWarnings(String log) {
    return (int) log.lines().filter(line -> line.contains("Spanflight could not deliver profiles to")).count();
  }

  /** Lines of a Java stack trace in the app's log ({@code \tat ...}). */
  static int stackTraceLines(String log) {
    return (int) log.lines().filter(line -> line.startsWith("\tat ")).count();
  }

  /** The healthy p99 that bounds the others: the higher of the healthy runs', in µs. */
  static long healthyP99Micros(List<FaultRow> healthy) {
    return healthy.stream().mapToLong(row -> row.latencies().p99Micros()).max().orElseThrow();
  }

  /** The results as a Markdown table, with the healthy p99 ({@link #healthyP99Micros}) beside each. */
  static String table(List<FaultRow> rows, List<FaultRow> healthy) {
    String healthyP99 = String.format(Locale.ROOT, "%.1f", healthyP99Micros(healthy) / 1000.0);
    StringBuilder s = new StringBuilder(
        "| fault | requests | p99 healthy ms | p99 this run ms | produced | delivered | dropped (queue full, refused, shutdown) | max pending | resumed |\n"
            + "| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | --- |\n");
    for (FaultRow row : rows) {
      DeliveryAccount a = row.account();
      s.append(String.format(Locale.ROOT, "| %s | %d | %s | %s | %s | %s | %s | %d | %s |%n",
          row.fault(), row.latencies().ok() + row.latencies().failed(), healthyP99, row.latencies().p99Millis(),
          a == null ? "?" : a.produced(), a == null ? "?" : a.delivered(),
          a == null ? "?" : a.dropped() + " (" + a.droppedQueueFull() + ", " + a.droppedRefused() + ", "
              + a.droppedShutdown() + ")",
          row.maxPending(), row.resumed() == null ? "n/a" : row.resumed() ? "yes" : "no"));
    }
    return s.toString();
  }

  /** One line per case with the failure the exporter reported, for the log of the run. */
  static String problems(List<FaultRow> rows) {
    StringBuilder s = new StringBuilder();
    for (FaultRow row : rows) {
      s.append(String.format(Locale.ROOT, "%-30s %s; load %.1f s, %s; self-metrics at exit: %s%n", row.fault() + ":",
          row.problem().isEmpty() ? "(no failure logged)" : row.problem(), row.loadSeconds(), row.latencies(),
          row.metricsAtExit()));
    }
    return s.toString();
  }
}
