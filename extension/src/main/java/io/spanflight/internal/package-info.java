/**
 * The wiring and the switch: {@link io.spanflight.internal.SpanflightCustomizerProvider} is what
 * the OpenTelemetry agent loads; {@link io.spanflight.internal.DataPath} builds every part from
 * the settings, in order; {@link io.spanflight.internal.Spanflight} switches profiling on and off;
 * each stretch of time it is on is a {@link io.spanflight.internal.SpanflightRun} (the JFR stream,
 * the exporter, the background threads); {@link io.spanflight.internal.FleetView} is what the
 * OpAMP client ({@code opamp}) sees of and changes in the profiler. The data path itself is drawn in {@code
 * docs/how-it-works.md} ("The data path, class by class"). Beside them, the wiring's own settings
 * ({@link io.spanflight.internal.SdkBuildSettings}, {@link io.spanflight.internal.DiagnosticMode})
 * and one small joint between other parts: {@link io.spanflight.internal.ProcessContextPublisher}
 * (the resource and {@code registry}'s key map to the bridge's process context). The features live
 * in the packages named for them (Spanflight's own metrics in {@code selfmetrics}, the method
 * sources in {@code jfr}, the virtual-thread mount hooks in {@code capture}).
 *
 * <p>In: the agent's configuration and SDK (span processors, resource). Out: nothing of its own;
 * it connects the packages below it.
 *
 * <p>Never imported by any of those packages: the arrows run from here down, never back up.
 *
 * <p>Not API: internal to Spanflight.
 */
package io.spanflight.internal;
