/**
 * The JFR side of the join: {@link io.spanflight.internal.jfr.join.SampleJoiner} takes what the join
 * needs of each event as a reader gives it (thread, ticks, stack and leaf as indexes of the
 * reader's {@code jfr.chunk.ConstantStore}, value), feeds the calibration events to the clock
 * ({@code jfr.clock}), lets events wait until they can be joined ({@code PendingSamples}), and hands
 * them to the JFR-free {@code correlate.TimelineJoin}, whose rules give each sample its span. What
 * was joined, dropped or left out is counted in {@code JoinCounts}; {@code JfrReaders} says which
 * reader feeds the joiner for the JVM's life.
 *
 * <p>In: events from {@code jfr}'s readers, each with its {@link
 * io.spanflight.internal.jfr.join.JoinSource} (the recording's source, seen only through that
 * interface). Out: {@code correlate.TimelineJoin}, and through it {@code profile.ProfileCollector}.
 * Imports {@code jfr.clock}, {@code jfr.chunk}'s store, {@code correlate}, {@code registry}, {@code
 * filter}, {@code costs}, {@code profile}, {@code config} and {@code threads}; never {@code jfr}
 * itself (the readers call in, the joiner never calls out), {@code export}, {@code report} or the
 * wiring in {@code io.spanflight.internal}. Runs on Spanflight's threads: under the {@code jfr/} C2
 * exclusion ({@code threads.BackgroundCompilation}).
 *
 * <p>Not API: internal to Spanflight.
 */
package io.spanflight.internal.jfr.join;
