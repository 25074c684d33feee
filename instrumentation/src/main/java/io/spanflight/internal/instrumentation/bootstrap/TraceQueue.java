package io.spanflight.internal.instrumentation.bootstrap;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.LongAdder;

/**
 * Traced calls waiting for Spanflight's background thread. A thread that owns a {@link
 * ThreadSlots slot} offers into the slot's own {@link TraceRing} (allocated on its first traced
 * call; single producer, no CAS); a thread without one, or whose ring is full, offers into a shared
 * ring picked by its thread id (one CAS). When that one is full too, the call is counted as
 * dropped. An offer allocates nothing.
 *
 * <p>Not API: internal to Spanflight. Loaded by the bootstrap class loader; depends on nothing but
 * {@code java.base}.
 */
public final class TraceQueue {
  private static final VarHandle RINGS = MethodHandles.arrayElementVarHandle(TraceRing[].class);

  private final TraceRing[] owned;
  private final int ownedCapacity;
  private final TraceRing[] shared;
  private final int stripeMask;
  private final LongAdder dropped = new LongAdder();

  /**
   * @param slots rings of {@code ownedCapacity} made as slots are first used
   * @param stripes shared rings of {@code sharedCapacity}; both counts and capacities powers of two
   */
  public TraceQueue(int slots, int ownedCapacity, int stripes, int sharedCapacity) {
    if (Integer.bitCount(stripes) != 1 || Integer.bitCount(ownedCapacity) != 1) {
      throw new IllegalArgumentException("stripes and capacity must be powers of two: " + stripes + ", " + ownedCapacity);
    }
    this.owned = new TraceRing[slots];
    this.ownedCapacity = ownedCapacity;
    this.shared = new TraceRing[stripes];
    for (int i = 0; i < stripes; i++) {
      shared[i] = new TraceRing(sharedCapacity);
    }
    this.stripeMask = stripes - 1;
  }

  /** Queues one traced call from a thread owning {@code slot} (or none, -1); drops it when full. */
  void offer(int slot, long threadId, long start, long end, int methodId, Object stack) {
    if (slot >= 0) {
      TraceRing ring = owned[slot];
      if (ring == null) {
        ring = new TraceRing(ownedCapacity);
        RINGS.setRelease(owned, slot, ring);
      }
      if (ring.offerOwned(threadId, start, end, methodId, stack)) {
        return;
      }
    }
    if (!shared[(int) threadId & stripeMask].offerShared(threadId, start, end, methodId, stack)) {
      dropped.increment();
    }
  }

  /** Receives each traced call. */
  public interface Sink {
    /** @param stack the callers captured for this call (see {@link MethodClock}), or null */
    void traced(long threadId, long startNanos, long endNanos, int methodId, Object stack);
  }

  /** Hands every queued call to {@code sink}; one caller at a time. Returns how many. */
  public int drain(Sink sink) {
    int drained = 0;
    for (int slot = 0; slot < owned.length; slot++) {
      TraceRing ring = (TraceRing) RINGS.getAcquire(owned, slot);
      if (ring != null) {
        drained += ring.drain(sink);
      }
    }
    for (TraceRing ring : shared) {
      drained += ring.drain(sink);
    }
    return drained;
  }

  /** Calls dropped because their rings were full, since this queue was made. */
  public long dropped() {
    return dropped.sum();
  }
}
