package io.spanflight.internal.correlate;

/**
 * The clock a sampler stamps its samples with (JFR's ticks), as the join needs it: placed on the
 * {@link System#nanoTime()} clock of the timelines, and only where the mapping can be vouched for.
 * The JFR stream's calibrated map ({@code jfr.clock.JfrClock}) is the one in use; tests pass their own.
 *
 * <p>Not API: internal to Spanflight.
 */
public interface SampleClock {
  /** Whether a sample at {@code ticks} maps onto nanoTime within the join's tolerance. */
  boolean trusted(long ticks);

  /** {@code ticks} on the {@link System#nanoTime()} clock; only where {@link #trusted}. */
  long toNanoTime(long ticks);
}
