package io.spanflight.internal.bridge;

/**
 * The Java half of a native drain: arrays, reused across drains, that {@code drain0} fills
 * ring by ring, and the delivery of what it filled to a {@link TimelineSink} in each ring's
 * order: lost entries first, then the delivered ones, then the end of the thread. Which Java
 * thread the native side charges losses to, and when it reports an end, is described in
 * {@code src/main/c/timeline_ring.c}.
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

  private final long[] nanos;
  private final int[] contexts;
  private final long[] threadIds;
  private final long[] meta = new long[RINGS_PER_CALL * META_LONGS];

  NativeDrain(int ringCapacity) {
    // drain0 puts a ring into the arrays only if a full ring still fits.
    int entries = Math.max(ringCapacity, MIN_ENTRIES_PER_CALL);
    this.nanos = new long[entries];
    this.contexts = new int[entries];
    this.threadIds = new long[entries];
  }

  void drainTo(TimelineSink sink) {
    // The native drain pass is per process: one drain at a time, whichever bridge asks.
    synchronized (NativeDrain.class) {
      boolean restart = true;
      int rings;
      while ((rings = NativeContextBridge.drain0(nanos, contexts, threadIds, meta, restart)) > 0) {
        restart = false;
        deliver(rings, sink);
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
      for (int end = entry + (int) meta[at + DELIVERED]; entry < end; entry++) {
        sink.switched(threadIds[entry], nanos[entry], contexts[entry]);
      }
      if (meta[at + ENDED] != 0) {
        sink.threadEnded(meta[at + ENDED]);
      }
    }
  }
}
