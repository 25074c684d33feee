package io.spanflight.smoke;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.spanflight.smoke.collector.OtlpCollector;
import io.spanflight.smoke.harness.AppJvm;
import io.spanflight.smoke.harness.LoadDriver;
import io.spanflight.smoke.profiles.CpuSamples;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Profiles reach the collector over each OTLP protocol with the real agent, chosen by the generic
 * {@code otel.exporter.otlp.*} keys the agent's own exporters use too, and exporting them creates
 * no span: the collector receives the app's SERVER spans and nothing else.
 */
class ExportSmokeTest extends SmokeTestBase {

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void httpProtobufWithGzip_profilesArriveAndNoSpanIsCreatedForExporting() throws Exception {
    try (OtlpCollector collector = OtlpCollector.start()) {
      List<Span> spans = runAndCollectSpans(collector, "export-http", "http/protobuf", collector.httpEndpoint());

      assertThat(collector.httpProfileBodies()).as("profile requests over HTTP").isNotEmpty();
      assertThat(collector.httpProfileEncodings()).as("Content-Encoding of each").containsOnly("gzip");
      assertNoExportSpans(spans, collector);
    }
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void grpc_profilesArriveAndNoSpanIsCreatedForExporting() throws Exception {
    try (OtlpCollector collector = OtlpCollector.start()) {
      List<Span> spans = runAndCollectSpans(collector, "export-grpc", "grpc", collector.endpoint());

      assertThat(collector.httpProfileBodies()).as("nothing over HTTP").isEmpty();
      assertNoExportSpans(spans, collector);
    }
  }

  /**
   * Runs the app with every signal on {@code protocol} to {@code endpoint}, sends 20 requests,
   * waits for their spans and for a profile, stops the app (its last export is flushed) and
   * returns every span the collector received.
   */
  private static List<Span> runAndCollectSpans(OtlpCollector collector, String service, String protocol,
      String endpoint) throws Exception {
    AppJvm app = app(newestJdk(), collector, service)
        .systemProperty("otel.exporter.otlp.protocol", protocol)
        .systemProperty("otel.exporter.otlp.endpoint", endpoint)
        .systemProperty("otel.exporter.otlp.compression", "gzip")
        .systemProperty("otel.bsp.schedule.delay", "200")
        .start();
    try (app) {
      LoadDriver.Result load = new LoadDriver(app.baseUri()).send("/burn?ms=20", 20, 2);
      assertThat(load.failed()).as(withLog(app, "requests: " + load)).isZero();
      boolean arrived = collector.await(
          c -> serverSpans(c, "/burn").size() >= 20 && !CpuSamples.decodeAll(c.profileRequests()).isEmpty(),
          Duration.ofSeconds(30));
      assertThat(arrived).as(withLog(app, "20 SERVER spans and a profile should arrive over "
          + protocol + "; " + received(collector))).isTrue();
      assertThat(app.logText()).as(withLog(app, "the extension's export log")).doesNotContain(
          "could not deliver profiles", "Spanflight dropped");
    }
    return allSpans(collector);
  }

  /** No CLIENT span, and no span that names the collector's ports or the OTLP paths and methods. */
  private static void assertNoExportSpans(List<Span> spans, OtlpCollector collector) {
    String grpcPort = String.valueOf(collector.port());
    String httpPort = collector.httpEndpoint().substring(collector.httpEndpoint().lastIndexOf(':') + 1);
    List<String> exportSpans = new ArrayList<>();
    for (Span span : spans) {
      StringBuilder attributes = new StringBuilder();
      for (KeyValue a : span.getAttributesList()) {
        attributes.append(a.getKey()).append('=').append(a.getValue().toString().trim()).append(' ');
      }
      String text = span.getName() + " " + attributes;
      boolean mentionsExport = text.contains("v1development") || text.contains("ProfilesService")
          || text.contains("/v1/traces") || text.contains("TraceService")
          || text.contains("int_value: " + grpcPort) || text.contains("int_value: " + httpPort);
      if (span.getKind() == Span.SpanKind.SPAN_KIND_CLIENT || mentionsExport) {
        exportSpans.add(span.getKind() + " " + text);
      }
    }
    assertThat(spans).as("spans received").isNotEmpty();
    assertThat(exportSpans).as("spans created by exporting (of " + spans.size() + " received)").isEmpty();
  }

  private static List<Span> allSpans(OtlpCollector collector) {
    List<Span> spans = new ArrayList<>();
    collector.traceRequests().forEach(request -> {
      for (ResourceSpans resource : request.getResourceSpansList()) {
        for (ScopeSpans scope : resource.getScopeSpansList()) {
          spans.addAll(scope.getSpansList());
        }
      }
    });
    return spans;
  }
}
