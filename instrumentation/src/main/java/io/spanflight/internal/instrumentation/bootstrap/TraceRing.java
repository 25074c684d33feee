package io.spanflight.internal.instrumentation.bootstrap;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One bounded ring of traced calls, after Dmitry Vyukov's bounded queue: each cell holds a
 * sequence number, four longs (thread id, start and end on the {@code System.nanoTime()} clock,
 * method id) and, for the few calls whose callers were captured, their stack. Offers come either
 * from one thread only ({@link #offerOwned}: plain stores and one release store) or from any
 * thread ({@link #offerShared}: one CAS more); one consumer drains. Full: the offer returns false.
 *
 * <p>Not API: internal to Spanflight. Loaded by the bootstrap class loader; depends on nothing but
 * {@code java.base}.
 */
public final class TraceRing {
  private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
  private static final VarHandle POSITION;
  private static final int FIELDS = 4;

  static {
    try {
      POSITION = MethodHandles.lookup().findVarHandle(TraceRing.class, "offerPosition", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final int capacity;
  private final int mask;
  private final long[] sequences;
  private final long[] data;
  private final Object[] stacks;
  // padding: the producers' position apart from the consumer's
  private long p1, p2, p3, p4, p5, p6, p7;
  private volatile long offerPosition;
  private long q1, q2, q3, q4, q5, q6, q7;
  private long takePosition; // the consumer's only

  /** @param capacity a power of two */
  public TraceRing(int capacity) {
    if (Integer.bitCount(capacity) != 1) {
      throw new IllegalArgumentException("capacity must be a power of two: " + capacity);
    }
    this.capacity = capacity;
    this.mask = capacity - 1;
    this.sequences = new long[capacity];
    this.data = new long[capacity * FIELDS];
    this.stacks = new Object[capacity];
    for (int i = 0; i < capacity; i++) {
      sequences[i] = i;
    }
  }

  /** Offers a call from the ring's only producer thread (at this time). */
  boolean offerOwned(long threadId, long start, long end, int methodId, Object stack) {
    long position = (long) POSITION.getOpaque(this);
    int cell = (int) (position & mask);
    if ((long) LONGS.getAcquire(sequences, cell) != position) {
      return false; // not yet drained: full
    }
    POSITION.setOpaque(this, position + 1);
    write(cell, position, threadId, start, end, methodId, stack);
    return true;
  }

  /** Offers a call from any thread. */
  boolean offerShared(long threadId, long start, long end, int methodId, Object stack) {
    while (true) {
      long position = offerPosition;
      int cell = (int) (position & mask);
      long difference = (long) LONGS.getAcquire(sequences, cell) - position;
      if (difference == 0) {
        if (POSITION.compareAndSet(this, position, position + 1)) {
          write(cell, position, threadId, start, end, methodId, stack);
          return true;
        }
      } else if (difference < 0) {
        return false;
      }
    }
  }

  private void write(int cell, long position, long threadId, long start, long end, int methodId, Object stack) {
    int at = cell * FIELDS;
    data[at] = threadId;
    data[at + 1] = start;
    data[at + 2] = end;
    data[at + 3] = methodId;
    if (stack != null) {
      stacks[cell] = stack;
    }
    LONGS.setRelease(sequences, cell, position + 1);
  }

  /** Hands every queued call to {@code sink}; one caller at a time. Returns how many. */
  int drain(TraceQueue.Sink sink) {
    int drained = 0;
    long position = takePosition;
    while (true) {
      int cell = (int) (position & mask);
      if ((long) LONGS.getAcquire(sequences, cell) != position + 1) {
        break;
      }
      int at = cell * FIELDS;
      Object stack = stacks[cell];
      if (stack != null) {
        stacks[cell] = null;
      }
      long threadId = data[at];
      long start = data[at + 1];
      long end = data[at + 2];
      int methodId = (int) data[at + 3];
      LONGS.setRelease(sequences, cell, position + capacity);
      position++;
      drained++;
      takePosition = position;
      sink.traced(threadId, start, end, methodId, stack);
    }
    return drained;
  }
}
