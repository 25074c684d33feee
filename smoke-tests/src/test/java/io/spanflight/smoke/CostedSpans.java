package io.spanflight.smoke;

import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The SERVER spans a collector received with their {@code spanflight.cost.*} attributes, and the
 * per-route cost metrics it received.
 */
final class CostedSpans {
  static final String STATUS = "spanflight.cost.status";

  /** One SERVER span: its route, its cost status and its integer attributes. */
  static final class Request {
    final String route;
    final String status;
    final Map<String, Long> numbers = new HashMap<>();

    Request(Span span) {
      String r = null;
      String s = null;
      for (KeyValue kv : span.getAttributesList()) {
        if (kv.getKey().equals("http.route")) {
          r = kv.getValue().getStringValue();
        } else if (kv.getKey().equals(STATUS)) {
          s = kv.getValue().getStringValue();
        } else if (kv.getValue().hasIntValue()) {
          numbers.put(kv.getKey(), kv.getValue().getIntValue());
        }
      }
      this.route = r;
      this.status = s;
    }

    /** The attribute's value; -1 when absent (unknown). */
    long get(String key) {
      return numbers.getOrDefault(key, -1L);
    }

    @Override
    public String toString() {
      return route + " " + status + " " + numbers;
    }
  }

  private CostedSpans() {}

  static List<Request> serverSpans(List<ExportTraceServiceRequest> requests, String route) {
    List<Request> spans = new ArrayList<>();
    for (ExportTraceServiceRequest request : requests) {
      for (ResourceSpans resource : request.getResourceSpansList()) {
        for (ScopeSpans scope : resource.getScopeSpansList()) {
          for (Span span : scope.getSpansList()) {
            Request r = new Request(span);
            if (span.getKind() == Span.SpanKind.SPAN_KIND_SERVER && route.equals(r.route)) {
              spans.add(r);
            }
          }
        }
      }
    }
    return spans;
  }

  /** Sum of {@code key} over {@code spans}; every span must have it. */
  static long sum(List<Request> spans, String key) {
    return spans.stream().mapToLong(s -> s.get(key)).sum();
  }

  /**
   * The newest cumulative value of {@code metric} at route {@code route} (and {@code
   * spanflight.wait.kind} = {@code waitKind} unless null); 0 before the first.
   */
  static double latest(List<ExportMetricsServiceRequest> requests, String metric, String route, String waitKind) {
    double value = 0;
    for (ExportMetricsServiceRequest request : requests) {
      for (var resource : request.getResourceMetricsList()) {
        for (var scope : resource.getScopeMetricsList()) {
          for (Metric m : scope.getMetricsList()) {
            if (!m.getName().equals(metric) || !m.hasSum()) {
              continue;
            }
            for (NumberDataPoint point : m.getSum().getDataPointsList()) {
              if (route.equals(attribute(point, "http.route"))
                  && (waitKind == null || waitKind.equals(attribute(point, "spanflight.wait.kind")))) {
                value = point.hasAsDouble() ? point.getAsDouble() : point.getAsInt();
              }
            }
          }
        }
      }
    }
    return value;
  }

  /** The values of attribute {@code key} (null when absent) on the points of {@code metric} at {@code route}. */
  static java.util.Set<String> pointValues(List<ExportMetricsServiceRequest> requests, String metric, String route,
      String key) {
    java.util.Set<String> values = new java.util.HashSet<>();
    for (ExportMetricsServiceRequest request : requests) {
      for (var resource : request.getResourceMetricsList()) {
        for (var scope : resource.getScopeMetricsList()) {
          for (Metric m : scope.getMetricsList()) {
            if (m.getName().equals(metric) && m.hasSum()) {
              for (NumberDataPoint point : m.getSum().getDataPointsList()) {
                if (route.equals(attribute(point, "http.route"))) {
                  values.add(attribute(point, key));
                }
              }
            }
          }
        }
      }
    }
    return values;
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
