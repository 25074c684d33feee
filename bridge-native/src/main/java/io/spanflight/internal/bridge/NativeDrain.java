package io.spanflight.internal.bridge;

/**
 * The Java half of a native drain: arrays, reused across drains, that {@code drain0} fills
 * ring by ring, and the delivery of what it filled to a {@link TimelineSink} in each ring's
 * order: lost entries first, then the delivered ones, then the end of the thread. Which Java
 * thread the native side charges losses to, and when it reports an end, is described in
 * {@code src/main/c/timeline_ring.c}.
 *
 * <p>Entries stamped with TSC ticks are converted to {@code nanoTime} by the process's {@link
 * SwitchClock}, calibrated after each {@code drain0} call (so after every entry it copied was
 * written); an entry it cannot vouch for is delivered as one lost entry of its thread.
 *
 * <p>Not API: internal to Spanflight.
 */
final class NativeDrain {
  /** Per ring, {@code drain0} writes these four longs (the SF_DRAIN_* layout in spanflight.h). */
  private static final int DELIVERED = 0;

  private static final int LOST = 1;
  private static final int LOST_THREAD = 2;
  private static final int ENDED = 3;
  private static final int META_LONGS = 4;

  private static final int RINGS_PER_CALL = 64;
  private static final int MIN_ENTRIES_PER_CALL = 1 << 14;

  /** One per process, like the rings and the library's clock flag; guarded by NativeDrain.class. */
  private static SwitchClock clock;

  private final long[] times;
  private final byte[] clocks;
  private final int[] contexts;
  private final long[] threadIds;
  private final long[] meta = new long[RINGS_PER_CALL * META_LONGS];

  NativeDrain(int ringCapacity) {
    // drain0 puts a ring into the arrays only if a full ring still fits.
    int entries = Math.max(ringCapacity, MIN_ENTRIES_PER_CALL);
    this.times = new long[entries];
    this.clocks = new byte[entries];
    this.contexts = new int[entries];
    this.threadIds = new long[entries];
    synchronized (NativeDrain.class) {
      if (clock == null) {
        clock = SwitchClock.forNative();
      }
    }
  }

  void drainTo(TimelineSink sink) {
    // The native drain pass is per process: one drain at a time, whichever bridge asks.
    synchronized (NativeDrain.class) {
      boolean restart = true;
      int rings;
      while ((rings = NativeContextBridge.drain0(times, clocks, contexts, threadIds, meta, restart))
          > 0) {
        restart = false;
        clock.calibrate();
        deliver(rings, sink);
      }
      if (restart) {
        clock.calibrate(); // nothing drained: keep the map's window fresh all the same
      }
    }
  }

  private void deliver(int rings, TimelineSink sink) {
    int entry = 0;
    for (int ring = 0; ring < rings; ring++) {
      int at = ring * META_LONGS;
      if (meta[at + LOST] > 0) {
        sink.lost(meta[at + LOST_THREAD], meta[at + LOST]);
      }
      long previous = Long.MIN_VALUE;
      for (int end = entry + (int) meta[at + DELIVERED]; entry < end; entry++) {
        long nanoTime = clock.toNanos(times[entry], clocks[entry]);
        if (nanoTime == TickClockMap.UNKNOWN) {
          sink.lost(threadIds[entry], 1);
          continue;
        }
        // The ring's order is the true order: a mapped time never goes behind its predecessor.
        previous = Math.max(previous, nanoTime);
        sink.switched(threadIds[entry], previous, contexts[entry]);
      }
      if (meta[at + ENDED] != 0) {
        sink.threadEnded(meta[at + ENDED]);
      }
    }
  }

  /** The process's switch clock (for tests). */
  static synchronized SwitchClock clock() {
    return clock;
  }
}
