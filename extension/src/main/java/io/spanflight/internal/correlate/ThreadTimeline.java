package io.spanflight.internal.correlate;

import java.util.function.IntConsumer;

/**
 * The context history of one Java thread, as sorted (nanoTime, contextId) steps: from each step's
 * time until the next step, the thread ran in that context. Owned by {@link Timelines}; not
 * thread-safe on its own.
 *
 * <p>Not API: internal to Spanflight.
 */
final class ThreadTimeline {
  static final int INITIAL_STEPS = 16;
  /** Where arrays come from when the timeline grows or shrinks, and go back to. */
  private final StepArrays arrays;
  private long[] times;
  private int[] contexts;
  private int size;
  /** Times before this were pruned: what the thread did then is no longer known. */
  private long knownSince = Long.MIN_VALUE;

  boolean ended;

  ThreadTimeline(StepArrays arrays) {
    this.arrays = arrays;
    use(arrays.take(INITIAL_STEPS));
  }

  /**
   * Adds a step, keeping the steps sorted by time. They usually arrive in order; a virtual thread's
   * switches do not always: they sit in the rings of the carriers it ran on, and one drain may read
   * a later carrier's ring before an earlier one's. Such a step is inserted in place (a short
   * shift: it is at most one drain period late).
   */
  void add(long nanoTime, int contextId) {
    if (size == times.length) {
      resize(size * 2);
    }
    int at = size;
    while (at > 0 && times[at - 1] > nanoTime) {
      at--;
    }
    if (at < size) {
      System.arraycopy(times, at, times, at + 1, size - at);
      System.arraycopy(contexts, at, contexts, at + 1, size - at);
    }
    times[at] = nanoTime;
    contexts[at] = contextId;
    size++;
  }

  /** Marks the stretch after the last known step as unknown (ring entries were overwritten). */
  void markUnknownFromLastStep() {
    long from = size == 0 ? Long.MIN_VALUE : times[size - 1] + 1;
    add(from, Timelines.UNKNOWN);
  }

  /** The context at {@code nanoTime}: 0 before the first step, UNKNOWN where history was lost. */
  int contextAt(long nanoTime) {
    if (nanoTime < knownSince) {
      return Timelines.UNKNOWN;
    }
    int step = stepAt(nanoTime);
    return step < 0 ? 0 : contexts[step];
  }

  /** The time of the step in force at {@code nanoTime}, Long.MIN_VALUE if none is known. */
  long stepTimeAt(long nanoTime) {
    int step = stepAt(nanoTime);
    return step < 0 ? Long.MIN_VALUE : times[step];
  }

  /** The index of the last step at or before {@code nanoTime}, -1 if there is none. */
  private int stepAt(long nanoTime) {
    int low = 0;
    int high = size - 1;
    int found = -1;
    while (low <= high) {
      int mid = (low + high) >>> 1;
      if (times[mid] <= nanoTime) {
        found = mid;
        low = mid + 1;
      } else {
        high = mid - 1;
      }
    }
    return found;
  }

  /** Drops steps that ended before {@code nanoTime}, keeping the one still in force then. */
  void pruneBefore(long nanoTime) {
    int keepFrom = 0;
    while (keepFrom + 1 < size && times[keepFrom + 1] <= nanoTime) {
      keepFrom++;
    }
    if (keepFrom > 0) {
      System.arraycopy(times, keepFrom, times, 0, size - keepFrom);
      System.arraycopy(contexts, keepFrom, contexts, 0, size - keepFrom);
      size -= keepFrom;
      knownSince = times[0];
    }
    if (times.length > 64 && size < times.length / 4) { // give memory back after a burst
      resize(times.length / 2);
    }
  }

  /** Moves the steps to arrays of {@code length} and hands the old ones back. */
  private void resize(int length) {
    StepArrays.Pair old = new StepArrays.Pair(times, contexts);
    use(arrays.take(length));
    System.arraycopy(old.times(), 0, times, 0, size);
    System.arraycopy(old.contexts(), 0, contexts, 0, size);
    arrays.give(old);
  }

  private void use(StepArrays.Pair arrays) {
    times = arrays.times();
    contexts = arrays.contexts();
  }

  /** Hands the arrays back: the timeline is gone and must not be used again. */
  void release() {
    arrays.give(new StepArrays.Pair(times, contexts));
    times = null; // another timeline may get these arrays: any later use fails here, loudly
    contexts = null;
    size = 0;
  }

  /** The time of the newest step, or Long.MIN_VALUE when empty. */
  long lastTime() {
    return size == 0 ? Long.MIN_VALUE : times[size - 1];
  }

  /** The context of the newest step, 0 when empty. */
  int lastContext() {
    return size == 0 ? 0 : contexts[size - 1];
  }

  long memoryBytes() {
    return (long) times.length * Long.BYTES + (long) contexts.length * Integer.BYTES;
  }

  int size() {
    return size;
  }

  void forEachContext(IntConsumer action) {
    for (int i = 0; i < size; i++) {
      action.accept(contexts[i]);
    }
  }
}
