package io.spanflight.internal.jfr.join;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Events dropped before the join, counted by why: the stop line and the debug line say which reason
 * a run's drops came from, where one total could not tell a stackless event from a sample that
 * waited for the clock while the reader's store was cleared.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class DroppedEvents {
  /** Why an event could not be joined at all. */
  public enum Reason {
    /** The event names no thread the chunk knows. */
    NO_THREAD("no thread"),
    /** No stack, or one that could not be resolved or read again from the chunk. */
    NO_STACK("no stack"),
    /** The field that weighs it is missing or holds no value. */
    NO_WEIGHT("no weight"),
    /** It waited for the clock while the reader's store was cleared: its stack index means nothing now. */
    STORE_CLEARED("store cleared while waiting"),
    /** More events waited for the clock than the queue holds. */
    TOO_MANY_WAITING("too many waiting"),
    /** It still waited for the clock (or the period in force) when the stream ended. */
    WAITING_AT_END("still waiting at the end");

    private final String label;

    Reason(String label) {
      this.label = label;
    }
  }

  private static final Reason[] REASONS = Reason.values();
  private final AtomicLongArray counts = new AtomicLongArray(REASONS.length);

  void add(Reason reason) {
    counts.incrementAndGet(reason.ordinal());
  }

  long count(Reason reason) {
    return counts.get(reason.ordinal());
  }

  long total() {
    long total = 0;
    for (int i = 0; i < REASONS.length; i++) {
      total += counts.get(i);
    }
    return total;
  }

  /**
   * {@code 12 (no stack 10, too many waiting 2)}: the total, then each reason that counted. Each
   * count is read once, so the total is their sum even while events are being counted.
   */
  @Override
  public String toString() {
    long total = 0;
    StringBuilder reasons = new StringBuilder();
    for (Reason reason : REASONS) {
      long count = count(reason);
      if (count > 0) {
        reasons.append(reasons.isEmpty() ? "" : ", ").append(reason.label).append(' ').append(count);
        total += count;
      }
    }
    return reasons.isEmpty() ? "0" : total + " (" + reasons + ")";
  }
}
