package io.spanflight.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.sdk.autoconfigure.spi.ConfigProperties;
import io.opentelemetry.sdk.autoconfigure.spi.internal.DefaultConfigProperties;
import io.spanflight.internal.config.SpanflightConfig;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The provider's three customizers of one SDK build share one read of the settings: what reading
 * logs by itself is logged once, and each sees the same settings.
 */
class SdkBuildSettingsTest {
  @Test
  void theCustomizersOfOneBuildShareOneReadAndItsWarning() {
    ConfigProperties properties = DefaultConfigProperties.createFromMap(Map.of("otel.exporter.otlp.protocol", "http/json"));
    SdkBuildSettings settings = new SdkBuildSettings();

    try (LogLines lines = LogLines.listen("io.spanflight")) {
      SpanflightConfig resourceCustomizer = settings.of(properties);
      SpanflightConfig spanExporterCustomizer = settings.of(properties);
      SpanflightConfig tracerProviderCustomizer = settings.of(properties);

      assertThat(spanExporterCustomizer).isSameAs(resourceCustomizer);
      assertThat(tracerProviderCustomizer).isSameAs(resourceCustomizer);
      assertThat(lines.records()).filteredOn(r -> r.getMessage().contains("http/json")).hasSize(1);
    }
  }

  @Test
  void anotherConfigurationIsReadAnew() {
    SdkBuildSettings settings = new SdkBuildSettings();

    SpanflightConfig first = settings.of(DefaultConfigProperties.createFromMap(Map.of()));
    SpanflightConfig second =
        settings.of(DefaultConfigProperties.createFromMap(Map.of(SpanflightConfig.EXPORT_INTERVAL, "30s")));

    assertThat(first.exportInterval()).isEqualTo(SpanflightConfig.DEFAULT_EXPORT_INTERVAL);
    assertThat(second.exportInterval()).isEqualTo(Duration.ofSeconds(30));
  }
}
