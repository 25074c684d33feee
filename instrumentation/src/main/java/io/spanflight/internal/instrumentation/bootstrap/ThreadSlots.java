package io.spanflight.internal.instrumentation.bootstrap;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Gives threads that call hooked methods a slot of their own, so that their counters and trace
 * ring have a single writer and need no atomic read-modify-write per call. A thread's slot is
 * fixed by its id ({@code id & (slots - 1)}): it owns the slot when it finds it free (one CAS, the
 * first time), and keeps it until it dies; a thread whose slot another live thread owns gets
 * {@code -1} and goes to the shared, atomic stripes instead (as fast as before, just not faster).
 * The reader ({@link #releaseDead()}, once a second) frees the slots of dead threads; what they
 * counted stays in the slot, and the next owner adds to it.
 *
 * <p>Why not a {@code ThreadLocal}: a lookup per call costs more than this array read, and a
 * virtual thread per request would allocate its own state per request.
 *
 * <p>Not API: internal to Spanflight. Loaded by the bootstrap class loader; depends on nothing but
 * {@code java.base}.
 */
public final class ThreadSlots {
  private static final VarHandle OWNERS = MethodHandles.arrayElementVarHandle(Thread[].class);

  private final Thread[] owners;
  private final int mask;

  /** @param slots a power of two */
  public ThreadSlots(int slots) {
    if (Integer.bitCount(slots) != 1) {
      throw new IllegalArgumentException("slots must be a power of two: " + slots);
    }
    this.owners = new Thread[slots];
    this.mask = slots - 1;
  }

  /** The slot {@code thread} owns (claiming it if free), or -1 when another live thread owns it. */
  int slotOf(Thread thread, long threadId) {
    int slot = (int) threadId & mask;
    Thread owner = owners[slot]; // only this thread ever stores itself here
    if (owner == thread) {
      return slot;
    }
    if (owner == null && OWNERS.compareAndSet(owners, slot, null, thread)) {
      return slot;
    }
    return -1;
  }

  public int size() {
    return owners.length;
  }

  /** Frees the slots of threads that ended (their writes happen-before {@code isAlive()} is false). */
  public void releaseDead() {
    for (int slot = 0; slot < owners.length; slot++) {
      Thread owner = (Thread) OWNERS.getAcquire(owners, slot);
      if (owner != null && !owner.isAlive()) {
        OWNERS.compareAndSet(owners, slot, owner, null);
      }
    }
  }

  /** Slots owned now (for tests and diagnostics). */
  public int owned() {
    int owned = 0;
    for (int slot = 0; slot < owners.length; slot++) {
      if (OWNERS.getAcquire(owners, slot) != null) {
        owned++;
      }
    }
    return owned;
  }
}
