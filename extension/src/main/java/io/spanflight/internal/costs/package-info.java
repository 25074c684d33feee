/**
 * Per-span costs ({@code otel.spanflight.span.costs}): the CPU, allocation and wait that JFR
 * attributed to each span, added to the span as {@code spanflight.cost.*} attributes when it is
 * exported, and per-route cost metrics.
 *
 * <p>In: joined samples from {@code correlate.TimelineJoin} ({@link
 * io.spanflight.internal.costs.SpanCostTable}, on the JFR consumer thread), ended spans from the SDK (the wrapped {@code SpanExporter}), the
 * settings from {@code config}. Out: spans with cost attributes to the delegate exporter, route
 * cost counters to the OpenTelemetry meter. The kinds of cost are {@code format.CostKind}, shared
 * with the HTML report; {@link io.spanflight.internal.costs.SourceCostKind} maps configured JFR
 * sources onto them.
 *
 * <p>Never imports: {@code jfr}, {@code correlate}, {@code capture}, {@code report}, or the
 * wiring in {@code io.spanflight.internal} (they call in, not the other way round).
 *
 * <p>Not API: internal to Spanflight.
 */
package io.spanflight.internal.costs;
