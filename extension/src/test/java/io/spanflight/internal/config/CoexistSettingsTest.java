package io.spanflight.internal.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.sdk.autoconfigure.spi.internal.DefaultConfigProperties;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code otel.spanflight.jfr.cap} and {@code otel.spanflight.jmx.enabled}. */
class CoexistSettingsTest {

  private static SpanflightConfig read(Map<String, String> properties) {
    return SpanflightConfig.read(DefaultConfigProperties.createFromMap(properties));
  }

  @Test
  void byDefaultNoCapAndTheMBeanIsRegistered() {
    SpanflightConfig config = read(Map.of());
    assertThat(config.capAtDefaultJfc()).isFalse();
    assertThat(config.jmxEnabled()).isTrue();
  }

  @Test
  void capDefaultAndJmxOff() {
    SpanflightConfig config = read(Map.of(SpanflightConfig.JFR_CAP, "default", SpanflightConfig.JMX_ENABLED, "false"));
    assertThat(config.errors()).isEmpty();
    assertThat(config.capAtDefaultJfc()).isTrue();
    assertThat(config.jmxEnabled()).isFalse();
    assertThat(config.describe()).contains("jfr.cap=default");
  }

  @Test
  void aBadCapNamesKeyValueAndExpectedForm() {
    SpanflightConfig config = read(Map.of(SpanflightConfig.JFR_CAP, "profile"));
    assertThat(config.errors())
        .singleElement()
        .asString()
        .contains(SpanflightConfig.JFR_CAP)
        .contains("profile")
        .contains("none, default");
    assertThat(config.capAtDefaultJfc()).isFalse();
  }
}
