package io.spanflight.internal.export;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.ok;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.http.Fault;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesPartialSuccess;
import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceResponse;
import io.spanflight.internal.config.OtlpSettings;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * OTLP http/protobuf export through the OkHttp sender the agent carries, against WireMock on
 * 127.0.0.1 misbehaving in each way a collector can. Every case checks delivered + dropped =
 * produced exactly and the queue bound.
 */
class OtlpHttpExportTest {
  private static final String PATH = "/" + OtlpSettings.HTTP_PATH;

  private WireMockServer server;

  private WireMockServer startServer(int port) {
    server = new WireMockServer(options().bindAddress("127.0.0.1").port(port));
    server.start();
    return server;
  }

  @AfterEach
  void stopServer() {
    if (server != null) {
      server.stop();
    }
  }

  private static Map<String, String> httpTo(int port, String timeout) {
    return Map.of(
        "otel.exporter.otlp.protocol", "http/protobuf",
        "otel.exporter.otlp.endpoint", "http://127.0.0.1:" + port,
        "otel.exporter.otlp.timeout", timeout);
  }

  private void answer(ResponseDefinitionBuilder response) {
    server.stubFor(post(urlEqualTo(PATH)).willReturn(response));
  }

  /** {@code first} to the first request, 200 to every later one. */
  private void firstThenOk(ResponseDefinitionBuilder first) {
    server.stubFor(post(urlEqualTo(PATH)).inScenario("s").whenScenarioStateIs(STARTED)
        .willReturn(first).willSetStateTo("up"));
    server.stubFor(post(urlEqualTo(PATH)).inScenario("s").whenScenarioStateIs("up").willReturn(ok()));
  }

  private List<LoggedRequest> received() {
    return server.findAll(postRequestedFor(urlEqualTo(PATH)));
  }

  private List<Integer> receivedNumbers() {
    return received().stream().map(r -> ExportHarness.numberOf(r.getBody())).distinct().sorted()
        .collect(Collectors.toList());
  }

  @Test
  void collectorDownAtStartThenUp_newestRequestsDeliveredOldestDroppedAsQueueFull() {
    int port = ExportHarness.freePort();
    try (ExportHarness export = ExportHarness.start(httpTo(port, "1s"), 4)) {
      DeliveryStats stats = export.failThenRecover("http down-then-up", 10, 3, () -> {
        startServer(port); // until now: connection refused, retried with backoff
        answer(ok());
      });
      assertThat(stats.delivered()).isEqualTo(4);
      assertThat(stats.droppedQueueFull()).isEqualTo(6);
      // the oldest waiting ones were dropped; the first may have been in flight and kept
      assertThat(receivedNumbers()).hasSize(4).contains(7, 8, 9);
      assertThat(export.logMessages()).anyMatch(m -> m.contains("dropped a profiles request (queue full"));
    }
  }

  @Test
  void serviceUnavailableWithRetryAfter_senderWaitsTheAnnouncedTime() {
    startServer(0);
    firstThenOk(aResponse().withStatus(503).withHeader("Retry-After", "2"));
    // The production sender policy: it owns in-call retries on status codes and honours Retry-After.
    try (ExportHarness export =
        ExportHarness.start(httpTo(server.port(), "10s"), 4, SenderConfig.RETRY_POLICY)) {
      DeliveryStats stats = export.produceAndSettle("http 503 Retry-After", 1);
      assertThat(stats.delivered()).isEqualTo(1);
      List<LoggedRequest> requests = received();
      assertThat(requests).hasSize(2);
      long gapMillis = requests.get(1).getLoggedDate().getTime() - requests.get(0).getLoggedDate().getTime();
      assertThat(gapMillis).as("wait between 503 and the retry").isGreaterThanOrEqualTo(1900);
    }
  }

  @Test
  void retryAfterLongerThanTheTimeout_queueRetriesAfterTheSenderGaveUp() {
    startServer(0);
    firstThenOk(aResponse().withStatus(503).withHeader("Retry-After", "30"));
    try (ExportHarness export =
        ExportHarness.start(httpTo(server.port(), "500ms"), 4, SenderConfig.RETRY_POLICY)) {
      DeliveryStats stats = export.produceAndSettle("http 503 Retry-After > timeout", 1);
      assertThat(stats.delivered()).isEqualTo(1);
      assertThat(stats.retries()).isEqualTo(1);
      assertThat(export.logMessages()).anyMatch(m -> m.contains("could not deliver profiles"));
    }
  }

  @Test
  void tooManyRequests_retriedUntilAcceptedOverflowCounted() {
    startServer(0);
    answer(aResponse().withStatus(429));
    try (ExportHarness export = ExportHarness.start(httpTo(server.port(), "1s"), 4)) {
      DeliveryStats stats = export.failThenRecover("http 429", 8, 3, () -> answer(ok()));
      assertThat(stats.delivered()).isEqualTo(4);
      assertThat(stats.droppedQueueFull()).isEqualTo(4);
      assertThat(stats.retries()).isGreaterThanOrEqualTo(3);
    }
  }

  @Test
  void responsesSlowerThanTheTimeout_retriedUntilTheCollectorIsFastAgain() {
    startServer(0);
    answer(ok().withFixedDelay(3000));
    try (ExportHarness export = ExportHarness.start(httpTo(server.port(), "300ms"), 4)) {
      DeliveryStats stats = export.failThenRecover("http slow", 3, 2, () -> answer(ok()));
      assertThat(stats.delivered()).isEqualTo(3);
      assertThat(stats.dropped()).isZero();
      assertThat(receivedNumbers()).containsExactly(0, 1, 2);
    }
  }

  @Test
  void connectionResetMidRequest_retried() {
    startServer(0);
    answer(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER));
    try (ExportHarness export = ExportHarness.start(httpTo(server.port(), "1s"), 4)) {
      DeliveryStats stats = export.failThenRecover("http reset", 3, 2, () -> answer(ok()));
      assertThat(stats.delivered()).isEqualTo(3);
      assertThat(stats.dropped()).isZero();
    }
  }

  @Test
  void partialSuccess_deliveredAndLoggedWithTheRejectedCount() {
    startServer(0);
    byte[] partial = ExportProfilesServiceResponse.newBuilder()
        .setPartialSuccess(ExportProfilesPartialSuccess.newBuilder()
            .setRejectedProfiles(2).setErrorMessage("profile too old"))
        .build().toByteArray();
    answer(ok().withHeader("Content-Type", "application/x-protobuf").withBody(partial));
    try (ExportHarness export = ExportHarness.start(httpTo(server.port(), "1s"), 4)) {
      DeliveryStats stats = export.produceAndSettle("http partial success", 3);
      assertThat(stats.delivered()).isEqualTo(3);
      assertThat(stats.rejectedProfiles()).isEqualTo(6);
      assertThat(export.logMessages()).anyMatch(m -> m.contains("the collector rejected 2 profiles: profile too old"));
    }
  }

  @Test
  void badRequest_droppedAsRefusedWithoutRetry() {
    startServer(0);
    answer(aResponse().withStatus(400));
    try (ExportHarness export = ExportHarness.start(httpTo(server.port(), "1s"), 4)) {
      DeliveryStats stats = export.produceAndSettle("http 400", 2);
      assertThat(stats.droppedRefused()).isEqualTo(2);
      assertThat(stats.retries()).isZero();
      assertThat(received()).hasSize(2);
    }
  }

  @Test
  void profilesKeysWinOverGenericOnes_gzipAndDecodedHeadersAreSent() {
    startServer(0);
    answer(ok());
    Map<String, String> properties = Map.of(
        "otel.exporter.otlp.protocol", "grpc",
        "otel.exporter.otlp.endpoint", "http://127.0.0.1:1",
        "otel.exporter.otlp.profiles.protocol", "http/protobuf",
        "otel.exporter.otlp.profiles.endpoint", "http://127.0.0.1:" + server.port() + "/custom/path",
        "otel.exporter.otlp.profiles.compression", "gzip",
        "otel.exporter.otlp.headers", "x-generic=1",
        "otel.exporter.otlp.profiles.headers", "authorization=Bearer%20abc,x-tenant=t1");
    server.stubFor(post(urlEqualTo("/custom/path")).willReturn(ok()));
    try (ExportHarness export = ExportHarness.start(properties, 4)) {
      assertThat(export.produceAndSettle("http gzip", 1).delivered()).isEqualTo(1);
      LoggedRequest request = server.findAll(postRequestedFor(urlEqualTo("/custom/path"))).get(0);
      assertThat(request.getHeader("Content-Encoding")).isEqualTo("gzip");
      assertThat(request.getHeader("Content-Type")).isEqualTo("application/x-protobuf");
      assertThat(request.getHeader("authorization")).isEqualTo("Bearer abc");
      assertThat(request.getHeader("x-tenant")).isEqualTo("t1");
      assertThat(request.containsHeader("x-generic")).isFalse();
      assertThat(ExportHarness.numberOf(request.getBody())).isZero();
    }
  }

  /** One version header, value 1, even where the user configured another (the Collector's exporters do the same). */
  @Test
  void profilesDevelopmentVersionSentOnce_overridingAConfiguredOne() {
    startServer(0);
    answer(ok());
    Map<String, String> properties = Map.of(
        "otel.exporter.otlp.protocol", "http/protobuf",
        "otel.exporter.otlp.endpoint", "http://127.0.0.1:" + server.port(),
        "otel.exporter.otlp.profiles.headers", "OTLP-Profiles-Development-Version=2,x-tenant=t1");
    try (ExportHarness export = ExportHarness.start(properties, 4)) {
      assertThat(export.produceAndSettle("http version", 1).delivered()).isEqualTo(1);
      LoggedRequest request = received().get(0);
      assertThat(request.getHeaders().getHeader(SenderConfig.PROFILES_VERSION_HEADER).values()).containsExactly("1");
      assertThat(request.getHeader("x-tenant")).isEqualTo("t1");
    }
  }
}
