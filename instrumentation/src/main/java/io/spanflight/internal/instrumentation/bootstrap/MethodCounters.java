package io.spanflight.internal.instrumentation.bootstrap;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Invocations and nanoseconds per timed method, in preallocated striped slots: a call adds into
 * the slot of its method in its thread's stripe (two atomic adds, no allocation), and the reader
 * sums a method's slots over the stripes. Threads are spread over the stripes by their id, so
 * threads calling the same method rarely contend for one cache line.
 *
 * <p>Layout: stripe-major, {@code [stripe][method]{calls, nanos}} in one {@code long[]}.
 *
 * <p>Not API: internal to Spanflight. Loaded by the bootstrap class loader; depends on nothing but
 * {@code java.base}.
 */
public final class MethodCounters {
  private static final VarHandle CELLS = MethodHandles.arrayElementVarHandle(long[].class);

  private final long[] cells;
  private final int stripeMask;
  private final int maxMethods;

  /** @param stripes a power of two */
  public MethodCounters(int maxMethods, int stripes) {
    if (Integer.bitCount(stripes) != 1) {
      throw new IllegalArgumentException("stripes must be a power of two: " + stripes);
    }
    this.maxMethods = maxMethods;
    this.stripeMask = stripes - 1;
    this.cells = new long[stripes * maxMethods * 2];
  }

  /** A stripe count for this machine: twice the processors, a power of two from 4 to 32. */
  public static int defaultStripes() {
    int wanted = Math.max(4, Math.min(32, 2 * Runtime.getRuntime().availableProcessors()));
    return Integer.highestOneBit(wanted - 1) << 1;
  }

  /** Adds one call of {@code nanos} to method {@code id}, in the stripe of {@code threadId}. */
  void add(int id, long threadId, long nanos) {
    int cell = (((int) threadId & stripeMask) * maxMethods + id) << 1;
    CELLS.getAndAdd(cells, cell, 1L);
    CELLS.getAndAdd(cells, cell + 1, nanos);
  }

  /** Method {@code id}'s calls and nanoseconds so far, summed over the stripes, into {@code out}. */
  public void read(int id, long[] out) {
    long calls = 0;
    long nanos = 0;
    for (int stripe = 0; stripe <= stripeMask; stripe++) {
      int cell = (stripe * maxMethods + id) << 1;
      calls += (long) CELLS.getVolatile(cells, cell);
      nanos += (long) CELLS.getVolatile(cells, cell + 1);
    }
    out[0] = calls;
    out[1] = nanos;
  }

  public int maxMethods() {
    return maxMethods;
  }
}
