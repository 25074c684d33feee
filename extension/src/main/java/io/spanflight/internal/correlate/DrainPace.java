package io.spanflight.internal.correlate;

/**
 * How long the drain thread sleeps before its next drain: {@value #FASTEST_MILLIS} ms while a ring
 * fills (or after lost entries), slowing down step by step to {@value #SLOWEST_MILLIS} ms while
 * every ring takes little between drains. What can overflow is one ring, so the pace follows the
 * fullest ring, not all rings together: a service whose many threads each switch a few hundred
 * times a second settles at the slow pace rather than the fast one, while one thread that switches
 * fast keeps the fast pace. Each wake-up costs a sleep and a pass over every ring (Spring PetClinic:
 * the drain thread's CPU halved, 2026-11-30). The join never waits for the pace: a sample newer
 * than the last drain drains first ({@link Timelines#contextAt}).
 *
 * <p>Not API: internal to Spanflight.
 */
public final class DrainPace {
  public static final long FASTEST_MILLIS = 10;
  public static final long SLOWEST_MILLIS = 50;

  private final int ringSize;
  private long millis = FASTEST_MILLIS;

  /** @param ringSize entries per ring: a drain whose fullest ring took an eighth of it is not fast enough */
  public DrainPace(int ringSize) {
    this.ringSize = ringSize;
  }

  /**
   * The pause before the next drain, after a drain whose fullest ring delivered {@code
   * fullestRing} entries, and that lost entries or not.
   */
  public long next(int fullestRing, boolean lost) {
    if (lost || fullestRing >= ringSize / 8) {
      millis = FASTEST_MILLIS;
    } else if (fullestRing < ringSize / 32) {
      millis = Math.min(SLOWEST_MILLIS, millis * 2);
    }
    return millis;
  }
}
