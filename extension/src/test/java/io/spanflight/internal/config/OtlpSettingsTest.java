package io.spanflight.internal.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.sdk.autoconfigure.spi.internal.DefaultConfigProperties;
import java.net.URISyntaxException;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;

class OtlpSettingsTest {

  private static SpanflightConfig read(Map<String, String> properties) {
    return SpanflightConfig.read(DefaultConfigProperties.createFromMap(properties));
  }

  private static OtlpSettings otlp(Map<String, String> properties) {
    SpanflightConfig config = read(properties);
    assertThat(config.errors()).isEmpty();
    return config.otlp();
  }

  private static String onlyError(Map<String, String> properties) {
    List<String> errors = read(properties).errors();
    assertThat(errors).hasSize(1);
    return errors.get(0);
  }

  private static String tls(String file) {
    try {
      return Paths.get(OtlpSettingsTest.class.getResource("/io/spanflight/internal/export/tls/" + file).toURI())
          .toString();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void defaultsFollowTheOtlpExporterConventions() {
    OtlpSettings otlp = otlp(Map.of());
    assertThat(otlp.protocol()).isEqualTo(OtlpSettings.Protocol.HTTP_PROTOBUF);
    assertThat(otlp.endpoint()).hasToString("http://localhost:4318/v1development/profiles");
    assertThat(otlp.gzip()).isFalse();
    assertThat(otlp.headers()).isEmpty();
    assertThat(otlp.timeout()).isEqualTo(Duration.ofSeconds(10));
    assertThat(otlp.tls()).isNull();
    assertThat(otlp.queueSize()).isEqualTo(6);
    assertThat(otlp.shutdownTimeout()).isEqualTo(Duration.ofSeconds(5));
    assertThat(otlp(Map.of("otel.exporter.otlp.protocol", "grpc")).endpoint())
        .hasToString("http://localhost:4317");
  }

  @Test
  void protocolFromTheProfilesKeyElseTheGenericOne() {
    assertThat(otlp(Map.of("otel.exporter.otlp.protocol", "grpc")).protocol())
        .isEqualTo(OtlpSettings.Protocol.GRPC);
    assertThat(otlp(Map.of(
            "otel.exporter.otlp.protocol", "grpc",
            "otel.exporter.otlp.profiles.protocol", "http/protobuf")).protocol())
        .isEqualTo(OtlpSettings.Protocol.HTTP_PROTOBUF);
    // http/json for the agent's other signals: profiles still go, as http/protobuf
    assertThat(otlp(Map.of("otel.exporter.otlp.protocol", "http/json")).protocol())
        .isEqualTo(OtlpSettings.Protocol.HTTP_PROTOBUF);
    assertThat(onlyError(Map.of("otel.exporter.otlp.profiles.protocol", "http/json")))
        .isEqualTo("invalid value 'http/json' for otel.exporter.otlp.profiles.protocol"
            + " (OTEL_EXPORTER_OTLP_PROFILES_PROTOCOL): expected grpc or http/protobuf");
  }

  @Test
  void httpEndpoint_genericIsABaseUrl_profilesIsTheFullUrl() {
    assertThat(otlp(Map.of("otel.exporter.otlp.endpoint", "http://c:4318")).endpoint())
        .hasToString("http://c:4318/v1development/profiles");
    assertThat(otlp(Map.of("otel.exporter.otlp.endpoint", "https://c/otlp/")).endpoint())
        .hasToString("https://c/otlp/v1development/profiles");
    assertThat(otlp(Map.of(
            "otel.exporter.otlp.endpoint", "http://c:4318",
            "otel.exporter.otlp.profiles.endpoint", "http://p:9999/custom")).endpoint())
        .hasToString("http://p:9999/custom");
    assertThat(otlp(Map.of(
            "otel.exporter.otlp.protocol", "grpc",
            "otel.exporter.otlp.endpoint", "http://c:4317")).endpoint())
        .hasToString("http://c:4317");
  }

  @Test
  void compressionHeadersAndDeliverySettings() {
    OtlpSettings otlp = otlp(Map.of(
        "otel.exporter.otlp.compression", "gzip",
        "otel.exporter.otlp.headers", "api-key=s%3Dcret,x-scope=a%20b",
        "otel.spanflight.export.queue.size", "20",
        "otel.spanflight.export.shutdown.timeout", "0s"));
    assertThat(otlp.gzip()).isTrue();
    assertThat(otlp.headers()).containsExactlyInAnyOrderEntriesOf(Map.of("api-key", "s=cret", "x-scope", "a b"));
    assertThat(otlp.queueSize()).isEqualTo(20);
    assertThat(otlp.shutdownTimeout()).isZero();
    assertThat(otlp(Map.of(
            "otel.exporter.otlp.compression", "gzip",
            "otel.exporter.otlp.profiles.compression", "none")).gzip())
        .isFalse();
  }

  @Test
  void badValuesNameKeyValueAndExpectedForm() {
    assertThat(onlyError(Map.of("otel.exporter.otlp.profiles.compression", "zstd")))
        .isEqualTo("invalid value 'zstd' for otel.exporter.otlp.profiles.compression"
            + " (OTEL_EXPORTER_OTLP_PROFILES_COMPRESSION): expected one of none, gzip");
    assertThat(onlyError(Map.of("otel.exporter.otlp.headers", "a=1,novalue")))
        .contains("'a=***,***'", "otel.exporter.otlp.headers", "key=value pairs") // header values are secrets
        .doesNotContain("novalue");
    assertThat(onlyError(Map.of("otel.spanflight.export.queue.size", "0")))
        .isEqualTo("invalid value '0' for otel.spanflight.export.queue.size"
            + " (OTEL_SPANFLIGHT_EXPORT_QUEUE_SIZE): expected a whole number between 1 and 1024");
    assertThat(onlyError(Map.of("otel.spanflight.export.shutdown.timeout", "2h")))
        .contains("otel.spanflight.export.shutdown.timeout", "'2h'", "between 0s and 60s");
  }

  @Test
  void tlsFilesAreReadAtStartup() {
    OtlpSettings otlp = otlp(Map.of(
        "otel.exporter.otlp.profiles.certificate", tls("ca.pem"),
        "otel.exporter.otlp.profiles.client.certificate", tls("client.pem"),
        "otel.exporter.otlp.profiles.client.key", tls("client.key")));
    assertThat(otlp.tls()).isNotNull();
    assertThat(otlp.tls().trustManager().getAcceptedIssuers()).hasSize(1);
    assertThat(otlp(Map.of("otel.exporter.otlp.certificate", tls("ca.pem"))).tls()).isNotNull();
  }

  @Test
  void badTlsSettingsAreRefusedWithTheirKey() {
    assertThat(onlyError(Map.of("otel.exporter.otlp.profiles.certificate", "/no/such/ca.pem")))
        .startsWith("invalid value '/no/such/ca.pem' for otel.exporter.otlp.profiles.certificate"
            + " (OTEL_EXPORTER_OTLP_PROFILES_CERTIFICATE): expected a readable PEM file with X.509 certificates");
    assertThat(onlyError(Map.of("otel.exporter.otlp.certificate", tls("client.key"))))
        .contains("otel.exporter.otlp.certificate", "X.509 certificates");
    assertThat(onlyError(Map.of("otel.exporter.otlp.client.certificate", tls("client.pem"))))
        .contains("for otel.exporter.otlp.client.key", "a PEM file, because otel.exporter.otlp.client.certificate is set");
    Map<String, String> keyIsACertificate = new HashMap<>();
    keyIsACertificate.put("otel.exporter.otlp.client.certificate", tls("client.pem"));
    keyIsACertificate.put("otel.exporter.otlp.client.key", tls("ca.pem"));
    assertThat(read(keyIsACertificate).errors())
        .singleElement(InstanceOfAssertFactories.STRING)
        .contains("otel.exporter.otlp.client.key", "PKCS#8 private key");
  }
}
