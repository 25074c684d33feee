package io.spanflight.internal.bridge;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A ring of (nanoTime, contextId) entries written by exactly one thread and drained by exactly
 * one other. It starts small ({@link #INITIAL_CAPACITY} entries) and doubles, up to its maximum
 * capacity, whenever the writer would otherwise overwrite an entry not yet drained; so a thread
 * that switches a few times between drains (most virtual threads) costs a few hundred bytes, and
 * only a thread that outruns the drain pays for a full ring. The writer never waits: once the
 * ring is at its maximum and the reader falls behind, the oldest entries are overwritten, and the
 * reader reports them as lost instead of returning torn data.
 *
 * <p>Protocol: the writer stores the entry, then publishes the new sequence with a release store
 * followed by a store-store fence (so the next entry's stores cannot overtake it). The reader
 * acquires the sequence, then the current {@link Entries}, copies the entries it has not seen,
 * then re-reads the sequence; in a ring at its maximum capacity, any entry that the writer may
 * have reached again while the copy ran (including the one it may be writing at that moment) is
 * discarded and counted as lost. So once a full-size ring has wrapped between two drains, the
 * oldest surviving entry is sacrificed too.
 *
 * <p>Growth: the reader publishes how far it has drained (release); the writer reads it only
 * when its cached copy says the next slot still holds an undrained entry. If so, and the ring is
 * below its maximum, the writer copies the undrained entries into arrays twice as large, at their
 * slots for the new size, and publishes them (release) before it writes the next entry there.
 * The writer never overwrites an undrained entry of a ring below its maximum (its view of what
 * was drained is never ahead of the reader's), and a reader that acquired the sequence sees the
 * arrays in which that sequence was written, or newer ones holding the same undrained entries.
 * Growth is the only allocation after the first switch; the ring never shrinks while its thread
 * lives.
 *
 * <p>The reader's copy goes to scratch arrays that the caller owns ({@link Scratch}), one for all
 * the rings it drains.
 *
 * <p>Not API: internal to Spanflight.
 */
final class TimelineRing {
  /** Entries of a new ring (or its maximum, if smaller). */
  static final int INITIAL_CAPACITY = 8;

  private static final VarHandle PUBLISHED;
  private static final VarHandle DRAINED;
  private static final VarHandle ENTRIES;

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      PUBLISHED = lookup.findVarHandle(TimelineRing.class, "published", long.class);
      DRAINED = lookup.findVarHandle(TimelineRing.class, "drained", long.class);
      ENTRIES = lookup.findVarHandle(TimelineRing.class, "entries", Entries.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** One generation of the ring's arrays; replaced whole when the ring grows. */
  private static final class Entries {
    final long[] times;
    final int[] contexts;
    final int mask;

    Entries(int capacity) {
      times = new long[capacity];
      contexts = new int[capacity];
      mask = capacity - 1;
    }
  }

  /** The reader's copy of one ring's new entries, reused for every ring and every drain. */
  static final class Scratch {
    final long[] times;
    final int[] contexts;

    /** @param capacity at least the maximum capacity of every ring drained with it */
    Scratch(int capacity) {
      times = new long[capacity];
      contexts = new int[capacity];
    }
  }

  final long javaThreadId;
  private final int maxCapacity;

  /** Written by the writer only (release, when growing); read by the reader (acquire). */
  @SuppressWarnings("unused")
  private volatile Entries entries;

  /** Written by the writer only (release); read by the reader (acquire). */
  @SuppressWarnings("unused")
  private volatile long published;

  /** Written by the reader only (release): the first sequence not yet delivered. */
  @SuppressWarnings("unused")
  private volatile long drained;

  /**
   * Writer-private: its arrays, the next sequence, and the last value of drained it read
   * ({@code Long.MAX_VALUE} once the ring is at its maximum and never needs to read it again).
   */
  private Entries writing;

  private long next;
  private long drainedSeen;

  TimelineRing(long javaThreadId, int maxCapacity) {
    if (maxCapacity < 1 || Integer.bitCount(maxCapacity) != 1) {
      throw new IllegalArgumentException("ring capacity must be a power of two: " + maxCapacity);
    }
    this.javaThreadId = javaThreadId;
    this.maxCapacity = maxCapacity;
    this.writing = new Entries(Math.min(INITIAL_CAPACITY, maxCapacity));
    // Not final: the reader sees it because the ring reaches the reader through a safe
    // publication (the bridge's concurrent queue).
    this.entries = writing;
  }

  /** Writer side. */
  void append(long nanoTime, int contextId) {
    long seq = next;
    Entries e = writing;
    if (seq - drainedSeen > e.mask) {
      e = makeRoom(seq, e);
    }
    int slot = (int) (seq & e.mask);
    e.times[slot] = nanoTime;
    e.contexts[slot] = contextId;
    next = seq + 1;
    PUBLISHED.setRelease(this, seq + 1);
    // The next append's entry stores must not become visible before this sequence does, or a
    // reader could see a rewritten slot while the sequence still says it is intact.
    VarHandle.storeStoreFence();
  }

  /**
   * The slot of {@code seq} may still hold an undrained entry: refreshes the view of the reader's
   * progress and, if it is still undrained, grows the ring when it can (else the entry is lost).
   */
  private Entries makeRoom(long seq, Entries e) {
    int capacity = e.mask + 1;
    if (capacity >= maxCapacity) {
      // Full size: from now on the writer overwrites without asking, as a fixed ring does.
      drainedSeen = Long.MAX_VALUE;
      return e;
    }
    long seen = (long) DRAINED.getAcquire(this);
    drainedSeen = seen;
    if (seq - seen < capacity) {
      return e;
    }
    Entries grown = new Entries(capacity << 1);
    for (long s = seen; s < seq; s++) {
      grown.times[(int) (s & grown.mask)] = e.times[(int) (s & e.mask)];
      grown.contexts[(int) (s & grown.mask)] = e.contexts[(int) (s & e.mask)];
    }
    writing = grown;
    ENTRIES.setRelease(this, grown); // before any entry written into it is published
    return grown;
  }

  /** Entries the ring can hold now (it grows up to its maximum). */
  int capacity() {
    return ((Entries) ENTRIES.getAcquire(this)).mask + 1;
  }

  int maxCapacity() {
    return maxCapacity;
  }

  /**
   * Reader side: delivers the new entries in order, copying them through {@code scratch}
   * (at least {@link #maxCapacity()} entries); returns how many were delivered.
   */
  int drainTo(TimelineSink sink, Scratch scratch) {
    long end = (long) PUBLISHED.getAcquire(this);
    long from = (long) DRAINED.get(this); // reader-private in effect: only the reader writes it
    if (end == from) {
      return 0;
    }
    // Acquired after the sequence: the arrays of entry end - 1, or newer ones holding it too.
    Entries e = (Entries) ENTRIES.getAcquire(this);
    int capacity = e.mask + 1;
    long start = Math.max(from, end - capacity);
    int n = (int) (end - start);
    for (int i = 0; i < n; i++) {
      int slot = (int) ((start + i) & e.mask);
      scratch.times[i] = e.times[slot];
      scratch.contexts[i] = e.contexts[slot];
    }
    VarHandle.loadLoadFence();
    long firstIntact = start;
    if (capacity >= maxCapacity) {
      long endAfterCopy = (long) PUBLISHED.getAcquire(this);
      // The writer may be rewriting the slot of sequence (endAfterCopy - capacity) right now:
      // only entries after it are certainly intact. Below the maximum it never rewrites an
      // undrained slot: it grows instead.
      firstIntact = Math.min(end, Math.max(start, endAfterCopy - capacity + 1));
    }
    if (firstIntact > from) {
      sink.lost(javaThreadId, firstIntact - from);
    }
    for (int i = (int) (firstIntact - start); i < n; i++) {
      sink.switched(javaThreadId, scratch.times[i], scratch.contexts[i]);
    }
    DRAINED.setRelease(this, end);
    return (int) (end - firstIntact);
  }
}
