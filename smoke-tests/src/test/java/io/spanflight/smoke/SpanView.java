package io.spanflight.smoke;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.spanflight.smoke.traces.StoredSpan;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A received span as the inferred-span checks read it, whoever received it (our test collector,
 * or a tracing backend's query API): ids in lower-case hex (an empty parent id for a root), times
 * in epoch nanoseconds, attributes as strings, longs and booleans.
 */
record SpanView(String traceId, String spanId, String parentSpanId, String name, String kind, long startNanos,
    long endNanos, Map<String, Object> attributes) {

  String string(String key) {
    Object value = attributes.get(key);
    return value == null ? null : value.toString();
  }

  Long number(String key) {
    Object value = attributes.get(key);
    return value instanceof Long ? (Long) value : null;
  }

  long durationNanos() {
    return endNanos - startNanos;
  }

  boolean inferred() {
    return attributes.containsKey("spanflight.inferred");
  }

  /** Every span of the OTLP trace requests. */
  static List<SpanView> of(List<ExportTraceServiceRequest> requests) {
    List<SpanView> spans = new ArrayList<>();
    for (ExportTraceServiceRequest request : requests) {
      for (ResourceSpans resource : request.getResourceSpansList()) {
        for (ScopeSpans scope : resource.getScopeSpansList()) {
          for (Span span : scope.getSpansList()) {
            spans.add(of(span));
          }
        }
      }
    }
    return spans;
  }

  static SpanView of(Span span) {
    Map<String, Object> attributes = new LinkedHashMap<>();
    for (KeyValue kv : span.getAttributesList()) {
      AnyValue v = kv.getValue();
      attributes.put(kv.getKey(), v.hasIntValue() ? (Object) v.getIntValue()
          : v.hasBoolValue() ? (Object) v.getBoolValue() : v.getStringValue());
    }
    String kind = span.getKind().name().replace("SPAN_KIND_", "");
    return new SpanView(hex(span.getTraceId()), hex(span.getSpanId()), hex(span.getParentSpanId()), span.getName(),
        kind, span.getStartTimeUnixNano(), span.getEndTimeUnixNano(), attributes);
  }

  /** A span as a tracing backend gave it back. */
  static SpanView of(StoredSpan span) {
    return new SpanView(span.traceId(), span.spanId(), span.parentSpanId(), span.name(), span.kind().name(),
        span.startEpochNanos(), span.endEpochNanos(), span.attributes());
  }

  private static String hex(ByteString bytes) {
    return HexFormat.of().formatHex(bytes.toByteArray());
  }
}
