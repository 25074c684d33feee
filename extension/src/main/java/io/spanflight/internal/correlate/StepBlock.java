package io.spanflight.internal.correlate;

/**
 * A block of timeline steps: each step's context, and its time as an int of nanoseconds from the
 * block's base (8 bytes a step instead of 12). A time more than ±2.1 s from the base (a quiet
 * thread whose block spans seconds, or the {@code Long.MIN_VALUE} of an unknown stretch) widens
 * the block: from then on it keeps long times too, until it starts over. The long times' array
 * stays with the block for its next widening: a block lives for seconds, and an array dropped at
 * each start over died in the old generation (the demo service's largest source of it, JFR's
 * {@code jdk.PromoteObject*} events, 2026-11-29).
 *
 * <p>Not API: internal to Spanflight.
 */
final class StepBlock {
  private final int[] offsets;
  private final int[] contexts;
  /** Long times, once the block has widened; kept when it starts over. */
  private long[] wide;
  /** Whether the times are in {@link #wide} (else offsets from {@link #base}). */
  private boolean widened;
  private long base;

  StepBlock(int length) {
    offsets = new int[length];
    contexts = new int[length];
  }

  /** Starts the block over: offsets count from {@code nanoTime}, and no time is wide. */
  void startAt(long nanoTime) {
    base = nanoTime;
    widened = false;
  }

  long time(int i) {
    return widened ? wide[i] : base + offsets[i];
  }

  int context(int i) {
    return contexts[i];
  }

  void set(int i, long nanoTime, int contextId) {
    contexts[i] = contextId;
    if (widened) {
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
    if (wide == null) {
      wide = new long[offsets.length];
    }
    for (int i = 0; i < wide.length; i++) {
      wide[i] = base + offsets[i];
    }
    widened = true;
  }

  int length() {
    return contexts.length;
  }

  /** The bytes its arrays hold, the long times' array included once it has one. */
  long memoryBytes() {
    return (long) length() * StepArrays.STEP_BYTES + (wide == null ? 0 : (long) length() * Long.BYTES);
  }
}
