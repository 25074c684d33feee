package io.spanflight.smoke.traces;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class OtlpJsonSpansTest {
  /** Shaped as Jaeger's /api/v3/traces/{id} answers: hex ids, uint64 as strings, the kind as a number. */
  static final String ANSWER = """
      {"result": {"resourceSpans": [{
        "resource": {"attributes": [{"key": "service.name", "value": {"stringValue": "shop"}}]},
        "scopeSpans": [{"scope": {"name": "io.opentelemetry.java-http-server"}, "spans": [
          {"traceId": "0AF7651916CD43DD8448EB211C80319C", "spanId": "b7ad6b7169203331",
           "parentSpanId": "00f067aa0ba902b7", "name": "GET /nested", "kind": 2,
           "startTimeUnixNano": "1796682000000000000", "endTimeUnixNano": "1796682000090000000",
           "attributes": [
             {"key": "spanflight.cost.status", "value": {"stringValue": "ok"}},
             {"key": "spanflight.cost.cpu.time_ns", "value": {"intValue": "20000000"}},
             {"key": "http.response.status_code", "value": {"intValue": 200}},
             {"key": "error", "value": {"boolValue": false}},
             {"key": "ratio", "value": {"doubleValue": 0.5}},
             {"key": "tags", "value": {"arrayValue": {"values": [{"stringValue": "a"}, {"intValue": "2"}]}}}]},
          {"traceId": "0af7651916cd43dd8448eb211c80319c", "spanId": "1111111111111111",
           "parentSpanId": "b7ad6b7169203331", "name": "nested.outer", "kind": "SPAN_KIND_INTERNAL",
           "startTimeUnixNano": "1796682000010000000", "endTimeUnixNano": "1796682000080000000"},
          {"traceId": "0af7651916cd43dd8448eb211c80319c", "spanId": "2222222222222222",
           "parentSpanId": "1111111111111111", "name": "nested.inner", "kind": 1,
           "startTimeUnixNano": "1796682000020000000", "endTimeUnixNano": "1796682000085000000",
           "attributes": [{"key": "spanflight.inferred", "value": {"boolValue": true}}]}
        ]}]}]}}
      """;

  @Test
  void readsSpansIdsTimesKindsAndAttributes() {
    List<StoredSpan> spans = OtlpJsonSpans.parse(ANSWER);
    assertThat(spans).extracting(StoredSpan::name).containsExactly("GET /nested", "nested.outer", "nested.inner");
    StoredSpan server = spans.get(0);
    assertThat(server.traceId()).isEqualTo("0af7651916cd43dd8448eb211c80319c");
    assertThat(server.parentSpanId()).isEqualTo("00f067aa0ba902b7");
    assertThat(server.kind()).isEqualTo(StoredSpan.Kind.SERVER);
    assertThat(spans.get(1).kind()).isEqualTo(StoredSpan.Kind.INTERNAL);
    assertThat(server.startEpochNanos()).isEqualTo(1_796_682_000_000_000_000L);
    assertThat(server.durationNanos()).isEqualTo(90_000_000L);
    assertThat(server.stringAttribute("spanflight.cost.status")).contains("ok");
    assertThat(server.longAttribute("spanflight.cost.cpu.time_ns")).contains(20_000_000L);
    assertThat(server.longAttribute("http.response.status_code")).contains(200L);
    assertThat(server.booleanAttribute("error")).contains(false);
    assertThat(server.attribute("ratio")).contains(0.5);
    assertThat(server.attribute("tags")).contains(List.of("a", 2L));
    assertThat(server.serviceName()).isEqualTo("shop");
    assertThat(spans.get(1).attributes()).isEmpty();
  }

  @Test
  void traceResolvesParentsChildrenAndTimes() {
    StoredTrace trace = new StoredTrace("0af7651916cd43dd8448eb211c80319c", OtlpJsonSpans.parse(ANSWER));
    StoredSpan server = trace.spansOfKind(StoredSpan.Kind.SERVER).get(0);
    StoredSpan outer = trace.spansByName("nested.outer").get(0);
    StoredSpan inner = trace.spansByName("nested.inner").get(0);
    assertThat(trace.unresolvedParents()).containsExactly(server);
    assertThat(trace.parentOf(inner)).contains(outer);
    assertThat(trace.parentOf(server)).isEmpty();
    assertThat(trace.childrenOf(server)).containsExactly(outer);
    assertThat(trace.descendantsOf(server)).containsExactly(outer, inner);
    assertThat(trace.descendantsOf(inner)).isEmpty();
    assertThat(trace.span("2222222222222222")).contains(inner);
    assertThat(trace.spansWithAttribute("spanflight.inferred")).containsExactly(inner);
    assertThat(trace.spansWithAttribute("spanflight.cost.status", "ok")).containsExactly(server);
    // inner ends 5 ms after outer: outside without tolerance, inside with 5 ms
    assertThat(trace.outsideTheirParent(trace.spans(), 0)).containsExactly(inner);
    assertThat(trace.outsideTheirParent(trace.spans(), 5_000_000)).isEmpty();
    assertThat(trace.describe()).contains("trace 0af7651916cd43dd8448eb211c80319c with 3 spans",
        "nested.inner [INTERNAL] span 2222222222222222 parent 1111111111111111, 65.000 ms");
  }

  @Test
  void readsTheFileExportersShapeAndFailsOnAMisshapenOne() {
    assertThat(OtlpJsonSpans.parse("{\"resourceSpans\": []}")).isEmpty();
    assertThatThrownBy(() -> OtlpJsonSpans.parse("{\"result\": {\"resourceSpans\": {}}}"))
        .hasMessageContaining("resourceSpans is not an array");
    assertThatThrownBy(() -> OtlpJsonSpans.parse(
        "{\"resourceSpans\": [{\"scopeSpans\": [{\"spans\": [{\"startTimeUnixNano\": true}]}]}]}"))
        .hasMessageContaining("resourceSpans[0].scopeSpans[0].spans[0].startTimeUnixNano is not a number");
  }
}
