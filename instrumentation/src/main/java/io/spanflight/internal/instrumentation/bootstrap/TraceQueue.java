package io.spanflight.internal.instrumentation.bootstrap;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.LongAdder;

/**
 * Traced calls waiting for Spanflight's background thread: bounded rings, one per stripe of
 * threads (by thread id), each a multi-producer single-consumer queue after Dmitry Vyukov's bounded
 * queue. Each cell holds a sequence number and four longs (thread id, start and end on the {@code
 * System.nanoTime()} clock, method id). An offer is one CAS and five stores and allocates nothing;
 * when its ring is full, the call is counted as dropped instead.
 *
 * <p>Not API: internal to Spanflight. Loaded by the bootstrap class loader; depends on nothing but
 * {@code java.base}.
 */
public final class TraceQueue {
  private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
  /** Longs between two stripes' positions: each on its own cache line. */
  private static final int PAD = 16;
  private static final int FIELDS = 4;

  private final int capacity;
  private final int mask;
  private final int stripeMask;
  private final long[] sequences;
  private final long[] data;
  private final long[] offerPositions;
  private final long[] takePositions; // the consumer's only
  private final LongAdder dropped = new LongAdder();

  /** @param stripes and {@code capacityPerStripe} powers of two */
  public TraceQueue(int stripes, int capacityPerStripe) {
    this.capacity = capacityPerStripe;
    this.mask = capacityPerStripe - 1;
    this.stripeMask = stripes - 1;
    this.sequences = new long[stripes * capacityPerStripe];
    this.data = new long[stripes * capacityPerStripe * FIELDS];
    this.offerPositions = new long[stripes * PAD];
    this.takePositions = new long[stripes];
    for (int i = 0; i < sequences.length; i++) {
      sequences[i] = i & mask;
    }
  }

  /** Queues one traced call; drops (and counts) it when the ring of its thread's stripe is full. */
  void offer(long threadId, long start, long end, int methodId) {
    int stripe = (int) threadId & stripeMask;
    int positionIndex = stripe * PAD;
    int base = stripe * capacity;
    while (true) {
      long position = (long) LONGS.getVolatile(offerPositions, positionIndex);
      int cell = base + (int) (position & mask);
      long difference = (long) LONGS.getAcquire(sequences, cell) - position;
      if (difference == 0) {
        if (LONGS.compareAndSet(offerPositions, positionIndex, position, position + 1)) {
          int at = cell * FIELDS;
          data[at] = threadId;
          data[at + 1] = start;
          data[at + 2] = end;
          data[at + 3] = methodId;
          LONGS.setRelease(sequences, cell, position + 1);
          return;
        }
      } else if (difference < 0) {
        dropped.increment();
        return;
      }
    }
  }

  /** Receives each traced call. */
  public interface Sink {
    void traced(long threadId, long startNanos, long endNanos, int methodId);
  }

  /** Hands every queued call to {@code sink}; one caller at a time. Returns how many. */
  public int drain(Sink sink) {
    int drained = 0;
    for (int stripe = 0; stripe <= stripeMask; stripe++) {
      int base = stripe * capacity;
      long position = takePositions[stripe];
      while (true) {
        int cell = base + (int) (position & mask);
        if ((long) LONGS.getAcquire(sequences, cell) != position + 1) {
          break;
        }
        int at = cell * FIELDS;
        sink.traced(data[at], data[at + 1], data[at + 2], (int) data[at + 3]);
        LONGS.setRelease(sequences, cell, position + capacity);
        position++;
        drained++;
      }
      takePositions[stripe] = position;
    }
    return drained;
  }

  /** Calls dropped because their ring was full, since this queue was made. */
  public long dropped() {
    return dropped.sum();
  }
}
