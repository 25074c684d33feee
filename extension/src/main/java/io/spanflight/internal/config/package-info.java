/**
 * Configuration, read at startup into immutable settings objects, and read again whole when a
 * run-time setting changes: {@link io.spanflight.internal.config.SettingsLayers} keeps the local
 * settings, the remote ones (OpAMP, {@link io.spanflight.internal.config.RemoteSettings}, within
 * the operator's {@link io.spanflight.internal.config.RemoteLimits}) and the MBean's, and reads a
 * proposed change with the same readers, so a bad value gets the start's message.
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
