/**
 * Spanflight's own metrics: {@link io.spanflight.internal.selfmetrics.SelfMetrics} reports the
 * data path's counters (samples by join outcome, lost switches, interned contexts, blind sources,
 * the exporters' requests and refused files) as OpenTelemetry metrics through the agent's meter
 * provider, and as one FINE log line a minute; {@link
 * io.spanflight.internal.selfmetrics.ExporterTotals} adds the exporters' counts up over every run.
 *
 * <p>In: the parts' counters, read on the background thread and by the meter's callbacks ({@code
 * jfr.join.SampleJoiner}, {@code jfr.BlindSources}, {@code correlate.Timelines}, {@code
 * registry.ContextRegistry}, {@code capture.WrapperSelfCheck}, the current run's {@code
 * export.ProfileExporter}). Out: instruments on the global OpenTelemetry's meter, log lines.
 *
 * <p>Reads the stages, never changes them: nothing but the wiring in {@code io.spanflight.internal}
 * imports this package, and it imports neither that wiring nor {@code control} or {@code report}.
 *
 * <p>Not API: internal to Spanflight.
 */
package io.spanflight.internal.selfmetrics;
