package io.spanflight.internal.correlate;

/**
 * How long the drain thread sleeps before its next drain: {@value #FASTEST_MILLIS} ms while rings
 * fill (or lost entries), slowing down step by step to {@value #SLOWEST_MILLIS} ms while drains
 * find little. A busy service keeps the fast pace; an idle one wakes the drain 20 times a second
 * instead of 100. The join never waits for the pace: a sample newer than the last drain drains
 * first ({@link Timelines#contextAt}).
 *
 * <p>Not API: internal to Spanflight.
 */
public final class DrainPace {
  public static final long FASTEST_MILLIS = 10;
  public static final long SLOWEST_MILLIS = 50;

  private final int ringSize;
  private long millis = FASTEST_MILLIS;

  /** @param ringSize entries per ring: a drain that found a sixteenth of it is not slow enough */
  public DrainPace(int ringSize) {
    this.ringSize = ringSize;
  }

  /**
   * The pause before the next drain, after a drain that moved {@code entries} ring entries (of all
   * rings together) and lost some or not.
   */
  public long next(int entries, boolean lost) {
    if (lost || entries >= ringSize / 8) {
      millis = FASTEST_MILLIS;
    } else if (entries < ringSize / 32) {
      millis = Math.min(SLOWEST_MILLIS, millis * 2);
    }
    return millis;
  }
}
