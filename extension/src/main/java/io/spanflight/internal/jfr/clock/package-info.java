/**
 * The clock of the join: JFR's tick timestamps mapped onto {@code System.nanoTime()}, the clock the
 * timelines record switches on. Our {@link io.spanflight.internal.jfr.clock.CalibrationEvent} carries
 * both; {@link io.spanflight.internal.jfr.clock.JfrClock} fits a line to them ({@code ClockFit}) and
 * says how far ahead of the newest point the line can be trusted; {@link
 * io.spanflight.internal.jfr.clock.CalibrationPace} says when a run commits the next one.
 *
 * <p>In: calibration events (ticks and nanoTime), from whichever reader reads our recording. Out:
 * {@code correlate.SampleClock}, which the join asks for each sample's instant. Imports only {@code
 * correlate} (that one interface) and {@code jdk.jfr}; runs on Spanflight's threads, so it is under
 * the same C2 exclusion as the rest of {@code jfr} ({@code threads.BackgroundCompilation}).
 *
 * <p>Not API: internal to Spanflight.
 */
package io.spanflight.internal.jfr.clock;
