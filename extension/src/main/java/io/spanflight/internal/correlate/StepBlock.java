package io.spanflight.internal.correlate;

/**
 * A block of timeline steps: each step's context, and its time as an int of nanoseconds from the
 * block's base (8 bytes a step instead of 12). A time more than ±2.1 s from the base (a quiet
 * thread whose block spans seconds, or the {@code Long.MIN_VALUE} of an unknown stretch) widens
 * the block: from then on it keeps long times too, until it is handed back.
 *
 * <p>Not API: internal to Spanflight.
 */
final class StepBlock {
  private final int[] offsets;
  private final int[] contexts;
  /** Null while every time fits as an offset. */
  private long[] wide;
  private long base;

  StepBlock(int length) {
    offsets = new int[length];
    contexts = new int[length];
  }

  /** Starts the block over: offsets count from {@code nanoTime}, and no time is wide. */
  void startAt(long nanoTime) {
    base = nanoTime;
    wide = null;
  }

  long time(int i) {
    long[] w = wide;
    return w != null ? w[i] : base + offsets[i];
  }

  int context(int i) {
    return contexts[i];
  }

  void set(int i, long nanoTime, int contextId) {
    contexts[i] = contextId;
    if (wide != null) {
      wide[i] = nanoTime;
      return;
    }
    long offset = nanoTime - base; // wraps where they are far apart; base + offset wraps back to nanoTime
    if (offset == (int) offset) {
      offsets[i] = (int) offset;
    } else {
      widen();
      wide[i] = nanoTime;
    }
  }

  /** Copies every offset into long times (slots not in use copy garbage, never read). */
  private void widen() {
    long[] times = new long[offsets.length];
    for (int i = 0; i < times.length; i++) {
      times[i] = base + offsets[i];
    }
    wide = times;
  }

  int length() {
    return contexts.length;
  }

  long memoryBytes() {
    return (long) length() * StepArrays.STEP_BYTES + (wide == null ? 0 : (long) length() * Long.BYTES);
  }
}
