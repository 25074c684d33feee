package io.spanflight.smoke;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.spanflight.smoke.collector.OtlpCollector;
import io.spanflight.smoke.harness.AppJvm;
import io.spanflight.smoke.harness.LoadDriver;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Spanflight's own counters arrive as OpenTelemetry metrics through the agent's meter provider:
 * samples by outcome, unknown samples by reason, export requests by outcome, contexts that got no
 * id, and the startup self-check.
 */
class SelfMetricsSmokeTest extends SmokeTestBase {

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void countersArriveAsMetrics() throws Exception {
    try (OtlpCollector collector = OtlpCollector.start()) {
      AppJvm app = app(newestJdk(), collector, "self-metrics")
          .systemProperty("otel.metrics.exporter", "otlp")
          .systemProperty("otel.metric.export.interval", "2000")
          .start();
      try (app) {
        LoadDriver.Result load = new LoadDriver(app.baseUri()).send("/burn?ms=50", 60, 2);
        assertThat(load.failed()).as(withLog(app, "requests: " + load)).isZero();
        boolean arrived = collector.await(
            c -> latest(c.metricRequests(), "spanflight.samples", "linked").orElse(0) > 0
                && latest(c.metricRequests(), "spanflight.export.requests", "delivered").orElse(0) > 0,
            Duration.ofSeconds(40));
        assertThat(arrived).as(withLog(app, "spanflight metrics; " + collector.metricRequests().size()
            + " metrics requests")).isTrue();
      }
      List<ExportMetricsServiceRequest> metrics = collector.metricRequests();
      assertThat(latest(metrics, "spanflight.capture.wrapper_inactive", null)).hasValue(0);
      assertThat(latest(metrics, "spanflight.export.requests", "dropped_queue_full")).hasValue(0);
      assertThat(latest(metrics, "spanflight.registry.contexts", null)).isPresent();
      assertThat(latest(metrics, "spanflight.registry.exhausted", null)).hasValue(0);
      assertThat(latestWith(metrics, "spanflight.samples.unknown", "reason", "clock")).isPresent();
      assertThat(latestWith(metrics, "spanflight.samples.unknown", "reason", "stale_id")).isPresent();
      assertThat(latest(metrics, "spanflight.export.files_refused", null)).as("no file exporter").isEmpty();
    }
  }

  /** The newest value of a metric's point whose {@code outcome} is {@code outcome} (null: any). */
  private static OptionalLong latest(List<ExportMetricsServiceRequest> requests, String name, String outcome) {
    return latestWith(requests, name, "outcome", outcome);
  }

  /** The newest value of a metric's point whose attribute {@code key} is {@code value} (null: any). */
  static OptionalLong latestWith(
      List<ExportMetricsServiceRequest> requests, String name, String key, String value) {
    OptionalLong latest = OptionalLong.empty();
    for (ExportMetricsServiceRequest request : requests) {
      for (var resource : request.getResourceMetricsList()) {
        for (var scope : resource.getScopeMetricsList()) {
          for (Metric metric : scope.getMetricsList()) {
            if (!metric.getName().equals(name)) {
              continue;
            }
            List<NumberDataPoint> points = metric.hasSum() ? metric.getSum().getDataPointsList()
                : metric.getGauge().getDataPointsList();
            for (NumberDataPoint point : points) {
              if (value == null || value.equals(attribute(point, key))) {
                latest = OptionalLong.of(point.getAsInt());
              }
            }
          }
        }
      }
    }
    return latest;
  }

  private static String attribute(NumberDataPoint point, String key) {
    for (KeyValue kv : point.getAttributesList()) {
      if (kv.getKey().equals(key)) {
        return kv.getValue().getStringValue();
      }
    }
    return null;
  }
}
