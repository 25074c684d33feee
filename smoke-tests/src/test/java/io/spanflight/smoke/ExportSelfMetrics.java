package io.spanflight.smoke;

import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import java.util.ArrayList;
import java.util.List;

/**
 * The OTLP exporter's self-metrics as a collector received them: {@code spanflight.export.requests}
 * by {@code outcome} (cumulative counters) and the {@code spanflight.export.pending} gauge.
 */
final class ExportSelfMetrics {
  static final String REQUESTS = "spanflight.export.requests";
  static final String PENDING = "spanflight.export.pending";
  static final List<String> OUTCOMES =
      List.of("delivered", "dropped_queue_full", "dropped_refused", "dropped_shutdown");

  private final List<ExportMetricsServiceRequest> requests;

  private ExportSelfMetrics(List<ExportMetricsServiceRequest> requests) {
    this.requests = requests;
  }

  static ExportSelfMetrics of(List<ExportMetricsServiceRequest> requests) {
    return new ExportSelfMetrics(requests);
  }

  /** The newest value of {@code spanflight.export.requests{outcome}}; 0 before the first. */
  long latest(String outcome) {
    List<Long> values = values(REQUESTS, outcome);
    return values.isEmpty() ? 0 : values.get(values.size() - 1);
  }

  /** The newest count of each outcome: "delivered 4, dropped_queue_full 18, ...". */
  String outcomes() {
    StringBuilder s = new StringBuilder();
    for (String outcome : OUTCOMES) {
      s.append(s.length() == 0 ? "" : ", ").append(outcome).append(' ').append(latest(outcome));
    }
    boolean inLast = !requests.isEmpty() && !of(requests.subList(requests.size() - 1, requests.size()))
        .values(REQUESTS, null).isEmpty();
    return s.append(inLast ? "" : " (the last metrics request has none)").toString();
  }

  /** The largest {@code spanflight.export.pending} reported; -1 when none arrived. */
  long maxPending() {
    return values(PENDING, null).stream().mapToLong(Long::longValue).max().orElse(-1);
  }

  /** How many {@code spanflight.export.pending} readings arrived. */
  int pendingReadings() {
    return values(PENDING, null).size();
  }

  /** Every point of metric {@code name} (with {@code outcome}, unless null), in arrival order. */
  private List<Long> values(String name, String outcome) {
    List<Long> values = new ArrayList<>();
    for (ExportMetricsServiceRequest request : requests) {
      for (ResourceMetrics resource : request.getResourceMetricsList()) {
        for (ScopeMetrics scope : resource.getScopeMetricsList()) {
          for (Metric metric : scope.getMetricsList()) {
            if (metric.getName().equals(name)) {
              List<NumberDataPoint> points = metric.hasSum() ? metric.getSum().getDataPointsList()
                  : metric.getGauge().getDataPointsList();
              for (NumberDataPoint point : points) {
                if (outcome == null || outcome.equals(outcomeOf(point))) {
                  values.add(point.getAsInt());
                }
              }
            }
          }
        }
      }
    }
    return values;
  }

  private static String outcomeOf(NumberDataPoint point) {
    for (KeyValue kv : point.getAttributesList()) {
      if (kv.getKey().equals("outcome")) {
        return kv.getValue().getStringValue();
      }
    }
    return null;
  }
}
