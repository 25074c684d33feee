/**
 * Context filters ({@code otel.spanflight.filter}): which samples are kept, decided from the context
 * each was joined with.
 *
 * <p>In: filter expressions, parsed at startup for {@code config} ({@link
 * io.spanflight.internal.filter.ContextFilterParser}); per sample, at the join, its source, its
 * {@code registry.ContextRecord} (or none) and whether its context is unknown. Out: keep or drop
 * ({@link io.spanflight.internal.filter.SampleFilters}), each answer cached on the record.
 *
 * <p>Imports {@code registry} only. Must never import {@code config} (which imports filter), the
 * stages around the join ({@code capture}, {@code jfr}, {@code correlate}, {@code profile}, {@code
 * costs}, {@code export}, {@code report}), nor the wiring in {@code io.spanflight.internal}.
 *
 * <p>Not API: internal to Spanflight.
 */
package io.spanflight.internal.filter;
