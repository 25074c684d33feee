package io.spanflight.internal.instrumentation.bootstrap;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Invocations and nanoseconds per timed method. A call adds into its method's cells in its
 * thread's {@link ThreadSlots slot}: one writer per slot, so two plain (opaque) adds, no atomic
 * instruction; a slot's cells are allocated the first time a thread uses it. Threads without a
 * slot add atomically into shared stripes (by thread id). The reader sums a method's cells over
 * slots and stripes.
 *
 * <p>Layout: per slot {@code [method]{calls, nanos}}; shared {@code [stripe][method]{calls,
 * nanos}}.
 *
 * <p>Not API: internal to Spanflight. Loaded by the bootstrap class loader; depends on nothing but
 * {@code java.base}.
 */
public final class MethodCounters {
  private static final VarHandle CELLS = MethodHandles.arrayElementVarHandle(long[].class);
  private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(long[][].class);

  private final long[][] owned;
  private final long[] shared;
  private final int stripeMask;
  private final int maxMethods;

  /** @param stripes shared stripes for threads without a slot, a power of two */
  public MethodCounters(int maxMethods, int slots, int stripes) {
    if (Integer.bitCount(stripes) != 1) {
      throw new IllegalArgumentException("stripes must be a power of two: " + stripes);
    }
    this.maxMethods = maxMethods;
    this.stripeMask = stripes - 1;
    this.owned = new long[slots][];
    this.shared = new long[stripes * maxMethods * 2];
  }

  /** A stripe count for this machine: twice the processors, a power of two from 4 to 32. */
  public static int defaultStripes() {
    int wanted = Math.max(4, Math.min(32, 2 * Runtime.getRuntime().availableProcessors()));
    return Integer.highestOneBit(wanted - 1) << 1;
  }

  /** Adds one call of {@code nanos} to method {@code id}: in {@code slot} if it is owned (>= 0). */
  void add(int slot, int id, long threadId, long nanos) {
    if (slot >= 0) {
      long[] cells = owned[slot];
      if (cells == null) {
        cells = new long[maxMethods * 2];
        SLOTS.setRelease(owned, slot, cells);
      }
      int cell = id << 1;
      CELLS.setOpaque(cells, cell, (long) CELLS.getOpaque(cells, cell) + 1L);
      CELLS.setOpaque(cells, cell + 1, (long) CELLS.getOpaque(cells, cell + 1) + nanos);
    } else {
      int cell = (((int) threadId & stripeMask) * maxMethods + id) << 1;
      CELLS.getAndAdd(shared, cell, 1L);
      CELLS.getAndAdd(shared, cell + 1, nanos);
    }
  }

  /** Method {@code id}'s calls and nanoseconds so far, summed over slots and stripes, into {@code out}. */
  public void read(int id, long[] out) {
    long calls = 0;
    long nanos = 0;
    int at = id << 1;
    for (int slot = 0; slot < owned.length; slot++) {
      long[] cells = (long[]) SLOTS.getAcquire(owned, slot);
      if (cells != null) {
        calls += (long) CELLS.getOpaque(cells, at);
        nanos += (long) CELLS.getOpaque(cells, at + 1);
      }
    }
    for (int stripe = 0; stripe <= stripeMask; stripe++) {
      int cell = (stripe * maxMethods + id) << 1;
      calls += (long) CELLS.getVolatile(shared, cell);
      nanos += (long) CELLS.getVolatile(shared, cell + 1);
    }
    out[0] = calls;
    out[1] = nanos;
  }

  public int maxMethods() {
    return maxMethods;
  }
}
