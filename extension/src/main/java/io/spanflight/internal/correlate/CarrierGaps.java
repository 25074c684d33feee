package io.spanflight.internal.correlate;

import java.util.Arrays;

/**
 * Stretches of time in which some carrier's ring lost entries, so any virtual thread may have
 * switched context unseen. A virtual thread's context at time t is unknown when such a gap began
 * at or before t and ended after the thread's last known switch before t: only a switch seen after
 * the gap says what it ran in. Gaps are kept sorted and merged; owned by {@link Timelines}.
 *
 * <p>Not API: internal to Spanflight.
 */
final class CarrierGaps {
  private long[] from = new long[8];
  private long[] to = new long[8];
  private int size;
  /** The latest end among gaps pruned away; they began before any time still joined. */
  private long prunedTo = Long.MIN_VALUE;

  /** Adds the gap [{@code start}, {@code end}); gaps arrive in order of their start. */
  void add(long start, long end) {
    if (size > 0 && start <= to[size - 1]) {
      to[size - 1] = Math.max(to[size - 1], end);
      return;
    }
    if (size == from.length) {
      from = Arrays.copyOf(from, size * 2);
      to = Arrays.copyOf(to, size * 2);
    }
    from[size] = start;
    to[size] = end;
    size++;
  }

  boolean isEmpty() {
    return size == 0 && prunedTo == Long.MIN_VALUE;
  }

  /** Whether a virtual thread whose last known switch before {@code at} was at {@code stepTime} is unknown there. */
  boolean unknownAt(long at, long stepTime) {
    if (stepTime < prunedTo) {
      return true;
    }
    for (int i = size - 1; i >= 0; i--) { // the latest gap begun by then ends last (merged, sorted)
      if (from[i] <= at) {
        return stepTime < to[i];
      }
    }
    return false;
  }

  /** Folds the gaps that ended before {@code nanoTime} into one bound. */
  void pruneBefore(long nanoTime) {
    int keepFrom = 0;
    while (keepFrom < size && to[keepFrom] < nanoTime) {
      prunedTo = Math.max(prunedTo, to[keepFrom]);
      keepFrom++;
    }
    if (keepFrom > 0) {
      System.arraycopy(from, keepFrom, from, 0, size - keepFrom);
      System.arraycopy(to, keepFrom, to, 0, size - keepFrom);
      size -= keepFrom;
    }
  }

  void clear() {
    size = 0;
    prunedTo = Long.MIN_VALUE;
  }
}
