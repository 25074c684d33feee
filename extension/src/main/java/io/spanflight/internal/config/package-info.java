/**
 * Configuration, read once at startup into immutable settings objects.
 *
 * <p>In: the agent's {@code ConfigProperties} (system properties and {@code OTEL_*} environment
 * variables) and the files the keys name (the OTLP exporter's PEM certificates and key, read and
 * turned into a {@link io.spanflight.internal.config.ClientTls} here so a bad file is refused with
 * its key). Out: {@link io.spanflight.internal.config.SpanflightConfig} and the settings it holds
 * ({@link io.spanflight.internal.config.OtlpSettings}, {@link
 * io.spanflight.internal.config.SourceSettings}, {@link
 * io.spanflight.internal.config.FilterSettings}), plus the errors that name a key, its value and
 * the expected form ({@link io.spanflight.internal.config.ConfigError}), and {@link
 * io.spanflight.internal.config.Redacted}, which masks secrets in messages.
 *
 * <p>Imports {@code filter} only, to parse filter expressions at startup, and {@code
 * format.JsonString}, whose escapes {@code Redacted} writes control characters with. Must never import the
 * stages that consume settings ({@code export}, {@code jfr}, {@code profile}, {@code capture},
 * {@code registry}, {@code correlate}) nor the wiring in {@code io.spanflight.internal}: they read
 * config, config reads none of them.
 *
 * <p>Not API: internal to Spanflight.
 */
package io.spanflight.internal.config;
