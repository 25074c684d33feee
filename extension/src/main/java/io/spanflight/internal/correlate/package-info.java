/**
 * Correlation: where the two flows meet. The rings' switches become per-thread timelines ({@link
 * io.spanflight.internal.correlate.Timelines}), and each sample is joined with the context its
 * thread's timeline held at its time ({@link io.spanflight.internal.correlate.TimelineJoin}, the
 * join's rules, free of JFR).
 *
 * <p>In: drained switches, lost counts and thread ends from {@code bridge} (as its {@code
 * TimelineSink}); samples as plain values (thread, ticks, stack, leaf, value) from {@code
 * jfr.join.SampleJoiner}, with the clock that places their ticks ({@link
 * io.spanflight.internal.correlate.SampleClock}); context records from {@code registry}, the
 * {@code filter.SampleFilters}; on JDK 17 and 21, the method hooks' calls from {@code
 * instrumentation} ({@link io.spanflight.internal.correlate.HookedMethodSamples}). Out: kept
 * samples with their link to {@code profile.ProfileCollector}, per-span costs to {@code
 * costs.SpanCostTable}, the join's counters, and the ids timelines still refer to (for {@code
 * registry} pruning).
 *
 * <p>May import {@code bridge}, {@code registry}, {@code filter}, {@code profile}, {@code costs},
 * {@code format}, {@code config} and {@code instrumentation}. Must never import {@code jfr} nor any
 * {@code jdk.jfr} type (the join is read and tested without JFR), {@code capture}, {@code export},
 * {@code report}, nor the wiring in {@code io.spanflight.internal}.
 *
 * <p>Not API: internal to Spanflight.
 */
package io.spanflight.internal.correlate;
