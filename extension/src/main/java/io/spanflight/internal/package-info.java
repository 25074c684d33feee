/**
 * The wiring and the switch: {@link io.spanflight.internal.SpanflightCustomizerProvider} is what
 * the OpenTelemetry agent loads; {@link io.spanflight.internal.DataPath} builds every part from
 * the settings, in order; {@link io.spanflight.internal.Spanflight} switches profiling on and off;
 * each stretch of time it is on is a {@link io.spanflight.internal.SpanflightRun} (the JFR stream,
 * the exporter, the background threads). The data path itself is drawn in {@code
 * docs/how-it-works.md} ("The data path, class by class").
 *
 * <p>In: the agent's configuration and SDK (span processors, resource). Out: nothing of its own;
 * it connects the packages below it.
 *
 * <p>Never imported by any of those packages: the arrows run from here down, never back up.
 *
 * <p>Not API: internal to Spanflight.
 */
package io.spanflight.internal;
