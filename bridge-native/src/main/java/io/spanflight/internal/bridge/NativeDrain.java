package io.spanflight.internal.bridge;

import java.util.HashMap;
import java.util.Map;

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
 * <p>A ring's order is the true order of its switches, and so is the order of the times
 * delivered from it, across drains too: each ring's last delivered time is kept under the
 * ring's number until the ring is freed, and a later entry is never placed before it. Without
 * that, a refit of the clock's line between two drains (which may move it by up to {@value
 * TickClockMap#MAX_RESIDUAL_NANOS} ns), or a change of clock, could stamp a switch before the
 * one it followed, and the timeline would show the thread in the context it had just left.
 *
 * <p>Not API: internal to Spanflight.
 */
final class NativeDrain {
  /** Per ring, {@code drain0} writes these six longs (the SF_DRAIN_* layout in spanflight.h). */
  static final int DELIVERED = 0;

  static final int LOST = 1;
  static final int LOST_THREAD = 2;
  static final int ENDED = 3;
  static final int RING = 4;
  static final int FREED = 5;
  static final int META_LONGS = 6;

  private static final int RINGS_PER_CALL = 64;
  private static final int MIN_ENTRIES_PER_CALL = 1 << 14;

  /** One per process, like the rings and the library's clock flag; guarded by NativeDrain.class. */
  private static SwitchClock processClock;

  private static final Map<Long, long[]> processLastTimes = new HashMap<>();

  private final SwitchClock clock;
  /** Ring number to the last time delivered from that ring; guarded by NativeDrain.class. */
  private final Map<Long, long[]> lastTimes;

  // What drain0 fills (or a test).
  final long[] times;
  final byte[] clocks;
  final int[] contexts;
  final long[] threadIds;
  final long[] meta = new long[RINGS_PER_CALL * META_LONGS];

  NativeDrain(int ringCapacity) {
    this(ringCapacity, processClock(), processLastTimes);
  }

  /** A drain with its own clock and ring order, for tests that fill the arrays themselves. */
  NativeDrain(int ringCapacity, SwitchClock clock) {
    this(ringCapacity, clock, new HashMap<>());
  }

  private NativeDrain(int ringCapacity, SwitchClock clock, Map<Long, long[]> lastTimes) {
    // drain0 puts a ring into the arrays only if a full ring still fits.
    int entries = Math.max(ringCapacity, MIN_ENTRIES_PER_CALL);
    this.times = new long[entries];
    this.clocks = new byte[entries];
    this.contexts = new int[entries];
    this.threadIds = new long[entries];
    this.clock = clock;
    this.lastTimes = lastTimes;
  }

  private static synchronized SwitchClock processClock() {
    if (processClock == null) {
      processClock = SwitchClock.forNative();
    }
    return processClock;
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

  /** Delivers the first {@code rings} rings of the arrays (under NativeDrain.class). */
  void deliver(int rings, TimelineSink sink) {
    int entry = 0;
    for (int ring = 0; ring < rings; ring++) {
      int at = ring * META_LONGS;
      if (meta[at + LOST] > 0) {
        sink.lost(meta[at + LOST_THREAD], meta[at + LOST]);
      }
      long[] last = lastTimes.computeIfAbsent(meta[at + RING], number -> new long[] {Long.MIN_VALUE});
      for (int end = entry + (int) meta[at + DELIVERED]; entry < end; entry++) {
        long nanoTime = clock.toNanos(times[entry], clocks[entry]);
        if (nanoTime == TickClockMap.UNKNOWN) {
          sink.lost(threadIds[entry], 1);
          continue;
        }
        // The ring's order is the true order: a mapped time never goes behind its predecessor.
        last[0] = Math.max(last[0], nanoTime);
        sink.switched(threadIds[entry], last[0], contexts[entry]);
      }
      sink.ringDrained((int) meta[at + DELIVERED]);
      if (meta[at + ENDED] != 0) {
        sink.threadEnded(meta[at + ENDED]);
      }
      if (meta[at + FREED] != 0) {
        lastTimes.remove(meta[at + RING]);
      }
    }
  }

  /**
   * Forgets every ring's last time: call when profiling is switched off, because rings freed
   * while off are never reported (nor is anything they wrote meanwhile).
   */
  void forgetRings() {
    synchronized (NativeDrain.class) {
      lastTimes.clear();
    }
  }

  /** How many rings have a last time kept (for tests). */
  int ringsKept() {
    synchronized (NativeDrain.class) {
      return lastTimes.size();
    }
  }

  /** The process's switch clock (for tests). */
  static synchronized SwitchClock clock() {
    return processClock;
  }
}
