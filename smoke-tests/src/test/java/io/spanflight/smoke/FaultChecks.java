package io.spanflight.smoke;

import java.util.List;
import org.assertj.core.api.SoftAssertions;

/** What every row of {@link FaultsSmokeTest} must show; all rows are checked, then all failures reported. */
final class FaultChecks {
  /** The latency bound, generous for a shared 2-core machine: p99 within 2x healthy + 20 ms. */
  static final long P99_SLACK_MICROS = 20_000;

  private FaultChecks() {}

  static void assertAll(List<FaultRow> rows, List<FaultRow> healthy, RetryAfterGaps gaps, int retryAfterSeconds) {
    SoftAssertions soft = new SoftAssertions();
    checkRows(soft, rows, healthy);
    soft.assertThat(gaps.requests()).as("429 answers seen before the collector recovered").isGreaterThanOrEqualTo(2);
    soft.assertThat(gaps.shortestGapMillis()).as("no request sooner than Retry-After after a 429: " + gaps)
        .isGreaterThanOrEqualTo(retryAfterSeconds * 1000L - 100);
    soft.assertAll();
  }

  /** The checks of every row, into {@code soft}; a row in {@code healthy} is checked as healthy. */
  static void checkRows(SoftAssertions soft, List<FaultRow> rows, List<FaultRow> healthy) {
    for (FaultRow row : rows) {
      check(soft, row, healthy.contains(row), FaultRow.healthyP99Micros(healthy));
    }
  }

  private static void check(SoftAssertions soft, FaultRow row, boolean isHealthy, long healthyP99) {
    String what = row.fault() + " (" + row.latencies() + "; exporter reported: " + row.problem() + ")\n"
        + row.logTail();
    soft.assertThat(row.warmUpFailures()).as("warm-up failures, " + what).isZero();
    soft.assertThat(row.latencies().failed()).as("app requests failed, " + what).isZero();
    soft.assertThat(row.latencies().ok()).as("app requests answered, " + what).isGreaterThanOrEqualTo(200);
    if (!isHealthy) {
      soft.assertThat(row.latencies().p99Micros()).as("p99 µs vs healthy " + healthyP99 + " µs, " + what)
          .isLessThanOrEqualTo(2 * healthyP99 + P99_SLACK_MICROS);
    }
    soft.assertThat(row.pendingReadings()).as("spanflight.export.pending readings, " + what).isPositive();
    soft.assertThat(row.maxPending()).as("most requests pending (queue size " + FaultRun.QUEUE_SIZE + "), " + what)
        .isBetween(0L, (long) FaultRun.QUEUE_SIZE);
    DeliveryAccount a = row.account();
    soft.assertThat(a).as("the exporter's stop line with its final account, " + what).isNotNull();
    if (a == null) {
      return;
    }
    soft.assertThat(a.delivered() + a.dropped()).as("delivered + dropped = produced: " + a + ", " + what)
        .isEqualTo(a.produced());
    soft.assertThat(a.pending()).as("pending after shutdown, " + what).isZero();
    soft.assertThat((double) a.produced()).as("requests produced, one per 1 s interval, " + what)
        .isGreaterThanOrEqualTo(row.loadSeconds() / 2);
    if (row.targetAccepted() >= 0) {
      soft.assertThat(a.delivered()).as("delivered <= accepted by the target (" + row.targetAccepted() + "), " + what)
          .isLessThanOrEqualTo(row.targetAccepted());
    }
    if (isHealthy) {
      soft.assertThat(a.dropped()).as("dropped when healthy, " + what).isZero();
      soft.assertThat(a.delivered()).as("delivered = received when healthy, " + what).isEqualTo(row.targetAccepted());
      return;
    }
    soft.assertThat(row.problem()).as("the exporter logged the failure, " + what).isNotEmpty();
    soft.assertThat(a.droppedQueueFull()).as("dropped to stay within the queue bound, " + what).isPositive();
    if (row.resumed() != null) {
      soft.assertThat(row.resumed()).as("delivery resumed, " + what).isTrue();
      soft.assertThat(a.delivered()).as("delivered after the fault, " + what).isPositive();
    } else {
      soft.assertThat(a.delivered()).as("delivered through a lasting fault, " + what).isZero();
    }
  }
}
