package io.spanflight.internal;

import io.opentelemetry.sdk.autoconfigure.spi.ConfigProperties;
import io.spanflight.internal.config.SpanflightConfig;

/**
 * Spanflight's settings for one build of the SDK, read once and passed on: the SDK hands each of
 * {@link SpanflightCustomizerProvider}'s customizers (resource, span exporter, tracer provider)
 * the same configuration, and the first of them to ask reads it; the others get what it read.
 * Reading once also means that what reading logs by itself (profiles over OTLP with {@code
 * otel.exporter.otlp.protocol=http/json}: one warning) is logged once, not once per customizer.
 * Another configuration (a second SDK built in the same JVM) is read anew.
 *
 * <p>Not API: internal to Spanflight.
 */
final class SdkBuildSettings {
  /** The configuration {@link #config} was read from, or null before the first read. */
  private ConfigProperties readFrom;
  private SpanflightConfig config;

  /** The settings of {@code properties}, read the first time they are asked for. */
  synchronized SpanflightConfig of(ConfigProperties properties) {
    if (properties != readFrom) {
      config = SpanflightConfig.read(properties);
      readFrom = properties;
    }
    return config;
  }
}
