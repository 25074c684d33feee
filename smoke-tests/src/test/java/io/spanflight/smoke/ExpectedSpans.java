package io.spanflight.smoke;

import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.spanflight.smoke.app.propagation.Role;
import io.spanflight.smoke.profiles.SpanLink;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The span each piece of request work belongs to, found in the traces the collector received:
 * the trace is the one the load driver sent the request in; in it, the single SERVER span, or
 * the {@code nested.outer} span under it, or the {@code nested.inner} span under that.
 */
final class ExpectedSpans {
  static final String OUTER_NAME = "nested.outer";
  static final String INNER_NAME = "nested.inner";

  private final Map<String, List<Span>> byTrace = new HashMap<>();

  ExpectedSpans(List<ExportTraceServiceRequest> requests) {
    HexFormat hex = HexFormat.of();
    for (ExportTraceServiceRequest request : requests) {
      for (ResourceSpans resource : request.getResourceSpansList()) {
        for (ScopeSpans scope : resource.getScopeSpansList()) {
          for (Span span : scope.getSpansList()) {
            byTrace.computeIfAbsent(hex.formatHex(span.getTraceId().toByteArray()), t -> new ArrayList<>())
                .add(span);
          }
        }
      }
    }
  }

  /** The span of trace {@code traceId} that work of {@code role} belongs to, if it arrived. */
  Optional<SpanLink> of(String traceId, Role role) {
    List<Span> spans = byTrace.getOrDefault(traceId, List.of());
    List<Span> servers = spans.stream().filter(s -> s.getKind() == Span.SpanKind.SPAN_KIND_SERVER).toList();
    if (servers.size() != 1) {
      return Optional.empty();
    }
    Optional<Span> span = Optional.of(servers.get(0));
    if (role != Role.SERVER) {
      span = child(spans, span.get(), OUTER_NAME);
    }
    if (role == Role.INNER) {
      span = span.flatMap(outer -> child(spans, outer, INNER_NAME));
    }
    return span.map(s -> SpanLink.of(s.getTraceId(), s.getSpanId()));
  }

  /** Whether {@code link} is some span of trace {@code traceId} that was received. */
  boolean inTrace(String traceId, SpanLink link) {
    return link.traceId().equals(traceId) && isReceived(link);
  }

  /** Whether a span with this trace and span id was received. */
  boolean isReceived(SpanLink link) {
    return byTrace.getOrDefault(link.traceId(), List.of()).stream()
        .anyMatch(s -> SpanLink.of(s.getTraceId(), s.getSpanId()).equals(link));
  }

  /** The name of the received span {@code link}, or "?" when it did not arrive. */
  String nameOf(SpanLink link) {
    return byTrace.getOrDefault(link.traceId(), List.of()).stream()
        .filter(s -> SpanLink.of(s.getTraceId(), s.getSpanId()).equals(link))
        .map(s -> s.getName() + " (" + s.getKind().name().replace("SPAN_KIND_", "") + ")")
        .findFirst()
        .orElse("?");
  }

  private static Optional<Span> child(List<Span> spans, Span parent, String name) {
    List<Span> children = spans.stream()
        .filter(s -> s.getParentSpanId().equals(parent.getSpanId()) && s.getName().equals(name))
        .toList();
    return children.size() == 1 ? Optional.of(children.get(0)) : Optional.empty();
  }
}
