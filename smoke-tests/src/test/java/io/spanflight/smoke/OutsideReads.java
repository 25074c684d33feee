package io.spanflight.smoke;

import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.spanflight.smoke.collector.OtlpCollector;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;

/**
 * What the tests that read an app from outside (gdb, /proc) compare with: requests sent in a
 * trace of the test's choosing, and the spans and resource the agent exported for them.
 */
final class OutsideReads {
  private static final HttpClient CLIENT = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();

  private OutsideReads() {}

  /** A fresh random trace id, hex. */
  static String newTraceId() {
    byte[] id = new byte[16];
    ThreadLocalRandom.current().nextBytes(id);
    id[0] |= 1; // never all zero
    return HexFormat.of().formatHex(id);
  }

  /** GET {@code base + path} in trace {@code traceId} (sampled, flags 01); null: no traceparent. */
  static CompletableFuture<HttpResponse<String>> get(URI base, String path, String traceId) {
    HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(90));
    if (traceId != null) {
      request.header("traceparent", "00-" + traceId + "-00f067aa0ba902b7-01");
    }
    return CLIENT.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** GET and wait for the response. */
  static HttpResponse<String> getNow(URI base, String path) throws IOException, InterruptedException {
    return CLIENT.send(HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(90)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** The SERVER span the collector received in trace {@code traceId}. */
  static Optional<Span> serverSpan(OtlpCollector collector, String traceId) {
    byte[] id = HexFormat.of().parseHex(traceId);
    return collector.traceRequests().stream()
        .flatMap(request -> request.getResourceSpansList().stream())
        .flatMap(resource -> resource.getScopeSpansList().stream())
        .flatMap(scope -> scope.getSpansList().stream())
        .filter(span -> span.getKind() == Span.SpanKind.SPAN_KIND_SERVER)
        .filter(span -> java.util.Arrays.equals(span.getTraceId().toByteArray(), id))
        .findFirst();
  }

  /** The resource of the first spans the collector received. */
  static Optional<Resource> exportedResource(OtlpCollector collector) {
    return collector.traceRequests().stream()
        .flatMap(request -> request.getResourceSpansList().stream())
        .filter(ResourceSpans::hasResource)
        .filter(spans -> spans.getScopeSpansList().stream().mapToInt(ScopeSpans::getSpansCount).sum() > 0)
        .map(ResourceSpans::getResource)
        .findFirst();
  }

  /** Attributes as key to value text (strings as they are, other values as protobuf prints them). */
  static Map<String, String> asMap(List<KeyValue> attributes) {
    Map<String, String> map = new LinkedHashMap<>();
    for (KeyValue attribute : attributes) {
      map.put(attribute.getKey(), text(attribute.getValue()));
    }
    return map;
  }

  static String text(AnyValue value) {
    switch (value.getValueCase()) {
      case STRING_VALUE: return value.getStringValue();
      case INT_VALUE: return Long.toString(value.getIntValue());
      case BOOL_VALUE: return Boolean.toString(value.getBoolValue());
      case DOUBLE_VALUE: return Double.toString(value.getDoubleValue());
      case ARRAY_VALUE: return value.getArrayValue().getValuesList().stream().map(OutsideReads::text).toList().toString();
      default: return value.toString().trim();
    }
  }

  /** The string array attribute {@code key} (e.g. the key map), or empty. */
  static List<String> stringArray(List<KeyValue> attributes, String key) {
    return attributes.stream().filter(attribute -> attribute.getKey().equals(key))
        .flatMap(attribute -> attribute.getValue().getArrayValue().getValuesList().stream())
        .map(AnyValue::getStringValue)
        .toList();
  }
}
