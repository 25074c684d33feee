package io.spanflight.internal.bridge;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A fixed-size ring of (nanoTime, contextId) entries written by exactly one thread and drained by
 * exactly one other. The writer never waits: when the reader falls behind, the oldest entries are
 * overwritten, and the reader reports them as lost instead of returning torn data.
 *
 * <p>Protocol: the writer stores the entry, then publishes the new sequence with a release store
 * followed by a store-store fence (so the next entry's stores cannot overtake it).
 * The reader acquires the sequence, copies the entries it has not seen, then re-reads the
 * sequence; any entry that the writer may have reached again while the copy ran (including the
 * one it may be writing at that moment) is discarded and counted as lost. So once a ring has
 * wrapped between two drains, the oldest surviving entry is sacrificed too.
 *
 * <p>Not API: internal to Spanflight.
 */
final class TimelineRing {
  private static final VarHandle PUBLISHED;

  static {
    try {
      PUBLISHED = MethodHandles.lookup().findVarHandle(TimelineRing.class, "published", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  final long javaThreadId;
  private final long[] times;
  private final int[] contexts;
  private final int mask;

  /** Written by the writer only (release); read by the reader (acquire). */
  @SuppressWarnings("unused")
  private volatile long published;

  /** Writer-private copy of {@link #published}. */
  private long next;

  /** Reader-private: the first sequence not yet delivered. */
  private long drained;

  /** Reader-private scratch, reused across drains. */
  private final long[] copyTimes;

  private final int[] copyContexts;

  TimelineRing(long javaThreadId, int capacity) {
    if (Integer.bitCount(capacity) != 1) {
      throw new IllegalArgumentException("ring capacity must be a power of two: " + capacity);
    }
    this.javaThreadId = javaThreadId;
    this.times = new long[capacity];
    this.contexts = new int[capacity];
    this.copyTimes = new long[capacity];
    this.copyContexts = new int[capacity];
    this.mask = capacity - 1;
  }

  /** Writer side. */
  void append(long nanoTime, int contextId) {
    long seq = next;
    int slot = (int) (seq & mask);
    times[slot] = nanoTime;
    contexts[slot] = contextId;
    next = seq + 1;
    PUBLISHED.setRelease(this, seq + 1);
    // The next append's entry stores must not become visible before this sequence does, or a
    // reader could see a rewritten slot while the sequence still says it is intact.
    VarHandle.storeStoreFence();
  }

  /** Reader side: delivers the new entries in order; returns how many were delivered. */
  int drainTo(TimelineSink sink) {
    long end = (long) PUBLISHED.getAcquire(this);
    if (end == drained) {
      return 0;
    }
    int capacity = mask + 1;
    long start = Math.max(drained, end - capacity);
    int n = (int) (end - start);
    for (int i = 0; i < n; i++) {
      int slot = (int) ((start + i) & mask);
      copyTimes[i] = times[slot];
      copyContexts[i] = contexts[slot];
    }
    VarHandle.loadLoadFence();
    long endAfterCopy = (long) PUBLISHED.getAcquire(this);
    // The writer may be rewriting the slot of sequence (endAfterCopy - capacity) right now:
    // only entries after it are certainly intact.
    long firstIntact = Math.min(end, Math.max(start, endAfterCopy - capacity + 1));
    if (firstIntact > drained) {
      sink.lost(javaThreadId, firstIntact - drained);
    }
    for (int i = (int) (firstIntact - start); i < n; i++) {
      sink.switched(javaThreadId, copyTimes[i], copyContexts[i]);
    }
    drained = end;
    return (int) (end - firstIntact);
  }
}
