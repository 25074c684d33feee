package io.spanflight.internal.correlate;

import java.util.function.Consumer;

/**
 * Java thread id to {@link ThreadTimeline}: open addressing with linear probing, keys as plain
 * longs. A {@code HashMap<Long, …>} took a boxed key and a node per thread; with a virtual thread
 * per task (the demo service: about 21 000 a minute) those lived the seconds a timeline is kept,
 * outlived the young collections and died in the old generation (a heap dump of the demo's soak,
 * 2026-11-30: 1.4 MB a minute of them). Removal shifts the following entries back, so there are no
 * tombstones; the table halves when it is mostly empty again after a burst of threads.
 *
 * <p>Not thread-safe: owned by {@link Timelines}, under its lock.
 *
 * <p>Not API: internal to Spanflight.
 */
final class ThreadTimelineMap {
  private static final int MIN_CAPACITY = 64;

  private long[] keys = new long[MIN_CAPACITY];
  /** The timeline at each slot; null marks a free slot. */
  private ThreadTimeline[] values = new ThreadTimeline[MIN_CAPACITY];
  private int size;

  ThreadTimeline get(long threadId) {
    int mask = values.length - 1;
    for (int i = home(threadId, mask); ; i = (i + 1) & mask) {
      ThreadTimeline value = values[i];
      if (value == null || keys[i] == threadId) {
        return value;
      }
    }
  }

  void put(long threadId, ThreadTimeline timeline) {
    if ((size + 1) * 2 > values.length) {
      resize(values.length * 2);
    }
    int mask = values.length - 1;
    int i = home(threadId, mask);
    while (values[i] != null && keys[i] != threadId) {
      i = (i + 1) & mask;
    }
    if (values[i] == null) {
      size++;
    }
    keys[i] = threadId;
    values[i] = timeline;
  }

  /** Removes the timeline of {@code threadId}, if there is one. */
  void remove(long threadId) {
    int mask = values.length - 1;
    int gap = home(threadId, mask);
    while (values[gap] != null && keys[gap] != threadId) {
      gap = (gap + 1) & mask;
    }
    if (values[gap] == null) {
      return;
    }
    values[gap] = null;
    size--;
    // Moves back every later entry of the run whose home is not between the gap and itself.
    for (int j = (gap + 1) & mask; values[j] != null; j = (j + 1) & mask) {
      int home = home(keys[j], mask);
      if (((j - home) & mask) >= ((j - gap) & mask)) {
        keys[gap] = keys[j];
        values[gap] = values[j];
        values[j] = null;
        gap = j;
      }
    }
    if (values.length > MIN_CAPACITY && size * 8 < values.length) {
      resize(values.length / 2);
    }
  }

  int size() {
    return size;
  }

  /** The thread ids present now, in no particular order. */
  long[] threadIds() {
    long[] ids = new long[size];
    int n = 0;
    for (int i = 0; i < values.length; i++) {
      if (values[i] != null) {
        ids[n++] = keys[i];
      }
    }
    return ids;
  }

  void forEachTimeline(Consumer<ThreadTimeline> action) {
    for (ThreadTimeline value : values) {
      if (value != null) {
        action.accept(value);
      }
    }
  }

  void clear() {
    keys = new long[MIN_CAPACITY];
    values = new ThreadTimeline[MIN_CAPACITY];
    size = 0;
  }

  private void resize(int capacity) {
    long[] oldKeys = keys;
    ThreadTimeline[] oldValues = values;
    keys = new long[capacity];
    values = new ThreadTimeline[capacity];
    int mask = capacity - 1;
    for (int i = 0; i < oldValues.length; i++) {
      if (oldValues[i] != null) {
        int j = home(oldKeys[i], mask);
        while (values[j] != null) {
          j = (j + 1) & mask;
        }
        keys[j] = oldKeys[i];
        values[j] = oldValues[i];
      }
    }
  }

  /** Fibonacci hashing: thread ids are mostly consecutive numbers. */
  private static int home(long threadId, int mask) {
    return (int) ((threadId * 0x9E3779B97F4A7C15L) >>> 40) & mask;
  }
}
