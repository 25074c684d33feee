package io.spanflight.internal.jfr;

/**
 * The values one JFR setting of one event type had, as reported by {@code jdk.ActiveSetting}
 * events, each with the JFR tick time from which it was in force. JFR applies the union of the
 * settings of every running recording, so the value changes whenever someone starts or stops a
 * recording; a sample is weighed with the value in force at its own time, so a change in the
 * middle of an export interval is split exactly there.
 *
 * <p>Keeps the newest {@value #CAPACITY} changes (JFR repeats the same values at every chunk;
 * repeats are not changes). Written by the JFR consumer thread, read by it and, for the
 * control view, by others.
 *
 * <p>Not API: internal to Spanflight.
 */
final class SettingHistory {
  static final int CAPACITY = 16;

  private final long[] fromTicks = new long[CAPACITY];
  private final String[] values = new String[CAPACITY];
  private int count;
  private int newest = -1;

  /** Records that {@code value} is in force from {@code ticks} on. */
  synchronized void set(long ticks, String value) {
    if (count > 0 && values[newest].equals(value)) {
      return;
    }
    newest = (newest + 1) % CAPACITY;
    fromTicks[newest] = ticks;
    values[newest] = value;
    count = Math.min(count + 1, CAPACITY);
  }

  /**
   * The value in force at {@code ticks}; the oldest known one for earlier times; null before the
   * first report.
   */
  synchronized String valueAt(long ticks) {
    if (count == 0) {
      return null;
    }
    int index = newest;
    for (int i = 0; i < count; i++) {
      if (fromTicks[index] <= ticks) {
        return values[index];
      }
      if (i < count - 1) {
        index = (index - 1 + CAPACITY) % CAPACITY;
      }
    }
    return values[index];
  }

  /** The newest value, or null before the first report. */
  synchronized String current() {
    return count == 0 ? null : values[newest];
  }

  /** How many different values were reported (capped at {@value #CAPACITY}). */
  synchronized int changes() {
    return count;
  }
}
