package io.spanflight.internal.export;

import static com.github.tomakehurst.wiremock.client.WireMock.ok;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.WireMockServer;
import io.spanflight.internal.config.OtlpSettings;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * TLS settings end to end: an HTTPS collector (WireMock) whose certificate is signed by a test CA
 * and that requires a client certificate signed by the same CA. Material: {@code tls/README.md}.
 */
class OtlpTlsExportTest {
  private WireMockServer server;

  static String tls(String file) {
    try {
      Path path = Paths.get(OtlpTlsExportTest.class.getResource("tls/" + file).toURI());
      return path.toString();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  @BeforeEach
  void startHttpsServerRequiringClientCertificates() {
    server = new WireMockServer(options()
        .bindAddress("127.0.0.1")
        .httpDisabled(true)
        .httpsPort(0)
        .keystorePath(tls("server.p12"))
        .keystoreType("PKCS12")
        .keystorePassword("changeit")
        .keyManagerPassword("changeit")
        .needClientAuth(true)
        .trustStorePath(tls("ca-truststore.p12"))
        .trustStoreType("PKCS12")
        .trustStorePassword("changeit"));
    server.start();
    server.stubFor(post(urlEqualTo("/" + OtlpSettings.HTTP_PATH)).willReturn(ok()));
  }

  @AfterEach
  void stop() {
    server.stop();
  }

  private Map<String, String> https() {
    Map<String, String> properties = new HashMap<>();
    properties.put("otel.exporter.otlp.protocol", "http/protobuf");
    properties.put("otel.exporter.otlp.endpoint", "https://127.0.0.1:" + server.httpsPort());
    properties.put("otel.exporter.otlp.timeout", "2s");
    properties.put("otel.exporter.otlp.profiles.certificate", tls("ca.pem"));
    return properties;
  }

  @Test
  void customCaAndClientCertificateDeliver() {
    Map<String, String> properties = https();
    properties.put("otel.exporter.otlp.profiles.client.certificate", tls("client.pem"));
    properties.put("otel.exporter.otlp.profiles.client.key", tls("client.key"));
    try (ExportHarness export = ExportHarness.start(properties, 4)) {
      export.produce(2);

      DeliveryStats stats = export.awaitSettledExactly(Duration.ofSeconds(30));
      assertThat(stats.delivered()).isEqualTo(2);
    }
  }

  @Test
  void withoutTheClientCertificateTheHandshakeFailsAndIsRetried() {
    try (ExportHarness export = ExportHarness.start(https(), 4)) {
      export.produce(1);
      export.awaitRetries(2);

      assertThat(export.queue.stats().delivered()).isZero();
      assertThat(export.logMessages()).anyMatch(m -> m.contains("could not deliver profiles"));
    }
  }

  @Test
  void genericKeysAreTheFallback() {
    Map<String, String> properties = https();
    properties.remove("otel.exporter.otlp.profiles.certificate");
    properties.put("otel.exporter.otlp.certificate", tls("ca.pem"));
    properties.put("otel.exporter.otlp.client.certificate", tls("client.pem"));
    properties.put("otel.exporter.otlp.client.key", tls("client.key"));
    try (ExportHarness export = ExportHarness.start(properties, 4)) {
      export.produce(1);

      assertThat(export.awaitSettledExactly(Duration.ofSeconds(30)).delivered()).isEqualTo(1);
    }
  }
}
