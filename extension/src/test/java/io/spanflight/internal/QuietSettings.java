package io.spanflight.internal;

import io.opentelemetry.sdk.autoconfigure.spi.internal.DefaultConfigProperties;
import io.spanflight.internal.config.SpanflightConfig;
import java.util.Map;

/** Settings for tests that run Spanflight in-process: defaults, but no export and no JMX bean. */
final class QuietSettings {
  private QuietSettings() {}

  /** @param nativeBridge whether the native bridge may be used (else the Java bridge) */
  static SpanflightConfig of(boolean nativeBridge) {
    return SpanflightConfig.read(
        DefaultConfigProperties.createFromMap(
            Map.of(
                "otel.spanflight.exporter", "none",
                "otel.spanflight.jmx.enabled", "false",
                "otel.spanflight.native.enabled", String.valueOf(nativeBridge))));
  }
}
