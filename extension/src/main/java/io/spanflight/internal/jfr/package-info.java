/**
 * The JFR side of the join: the recording (sources, settings, chunk rotation, clock), the event
 * stream, and the join of each sample with the context that was current on its thread then.
 *
 * <p>In: JFR events ({@code RecordingStream}), the configured sources from {@code config}, thread
 * timelines from {@code correlate}, context records from {@code registry}. Out: joined samples to
 * {@code profile.ProfileCollector} (after {@code filter}) and per-span costs to {@code
 * costs.SpanCostTable}, with the cost kinds of {@code format.CostKind}.
 *
 * <p>Never imports: {@code capture}, {@code report}, or the wiring in {@code
 * io.spanflight.internal}.
 *
 * <p>Not API: internal to Spanflight.
 */
package io.spanflight.internal.jfr;
