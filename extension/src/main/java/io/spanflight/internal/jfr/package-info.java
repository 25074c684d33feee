/**
 * Our JFR recording (sources, settings) and the thread that reads it as JFR writes it (with our own
 * chunk reader, {@code jfr.chunk}, or the JDK's stream), handing each event's values to the join
 * ({@code jfr.join}) and the calibration events to the clock ({@code jfr.clock}).
 *
 * <p>In: JFR events (our recording's chunk files, read by {@code jfr.chunk.ChunkReader}: samples,
 * {@code jdk.ActiveSetting}, our calibration event), the configured sources from {@code config},
 * the span scope event type that {@code capture} commits ({@code capture.SpanScopeEvent}, only
 * enabled here). Out: each sample's values (thread, ticks, stack and leaf as indexes of the
 * reader's constant store, value) to {@code jfr.join.SampleJoiner}, which hands them to {@code
 * correlate.TimelineJoin} with {@link io.spanflight.internal.jfr.clock.JfrClock} as its {@code
 * correlate.SampleClock}; {@code jdk.MethodTiming} deltas to the collector directly.
 *
 * <p>The method sources ({@code methodtiming}, {@code methodtrace}) are JFR's {@code
 * jdk.MethodTiming} and {@code jdk.MethodTrace} events (JEP 520) on JDK 25 and later, and before
 * it the instrumentation module's bytecode hooks, whose calls {@code correlate.HookedMethodSamples}
 * joins: {@link io.spanflight.internal.jfr.MethodSources} picks one, holds the filters in force
 * and hands them to our recording or to the hooks.
 *
 * <p>Imports {@code capture} for that one event type only, and {@code instrumentation} for the
 * method hooks ({@code MethodSources} only). Never imports: {@code export}, {@code
 * report}, or the wiring in {@code io.spanflight.internal}; and nothing of {@code correlate},
 * {@code filter} or {@code registry} imports jfr (the join's rules are JFR-free).
 *
 * <p>Not API: internal to Spanflight.
 */
package io.spanflight.internal.jfr;
