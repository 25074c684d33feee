package io.spanflight.internal.bridge;

import java.lang.ref.WeakReference;
import java.util.Iterator;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The pure-Java bridge: one {@link TimelineRing} per Java thread (virtual threads included), found
 * through a {@link ThreadLocal}. Each ring starts at a few entries and grows only while its thread
 * outruns the drain, and the drain copies through one scratch buffer for all rings, so a virtual
 * thread that switches now and then costs a few hundred bytes (ParkedVirtualThreadsMemoryTest).
 * Used where the native library is not available; it keeps the timeline but publishes no context
 * to readers outside the JVM.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class JavaContextBridge implements ContextBridge {

  /**
   * A ring and the thread that writes it (weakly, so a dead thread's ring can be retired). While
   * switched off, the ring too is held only weakly: its thread's {@link ThreadLocal} keeps it while
   * the thread lives, and the garbage collector frees it once the thread has ended.
   */
  private static final class Registered {
    final WeakReference<TimelineRing> weakRing;
    final WeakReference<Thread> thread;
    /** The ring while switched on; null while off. Written under the bridge's lock. */
    TimelineRing ring;

    Registered(TimelineRing ring, Thread thread, boolean off) {
      this.weakRing = new WeakReference<>(ring);
      this.thread = new WeakReference<>(thread);
      this.ring = off ? null : ring;
    }

    boolean threadEnded() {
      Thread t = thread.get();
      return t == null || t.getState() == Thread.State.TERMINATED;
    }
  }

  private final int ringCapacity;
  /** The drain's copy of one ring, shared by all rings (drains are synchronized). */
  private final TimelineRing.Scratch scratch;
  private final ConcurrentLinkedQueue<Registered> rings = new ConcurrentLinkedQueue<>();
  private final ThreadLocal<TimelineRing> ringOfThread = ThreadLocal.withInitial(this::register);
  /** Written under this lock; read without it by a thread's first switch. */
  private volatile boolean off;

  /** @param ringCapacity the most entries per thread, a power of two */
  public JavaContextBridge(int ringCapacity) {
    if (ringCapacity < 2 || Integer.bitCount(ringCapacity) != 1) {
      throw new IllegalArgumentException(
          "ring capacity must be a power of two >= 2, was " + ringCapacity);
    }
    this.ringCapacity = ringCapacity;
    this.scratch = new TimelineRing.Scratch(ringCapacity);
  }

  private TimelineRing register() {
    Thread current = Thread.currentThread();
    @SuppressWarnings("deprecation") // Thread.threadId() exists from 19 on; we run on 17.
    long id = current.getId();
    TimelineRing ring = new TimelineRing(id, ringCapacity);
    rings.add(new Registered(ring, current, off)); // no lock: a thread's first switch never waits
    return ring;
  }

  /** Nothing to do: the Java timeline stores ids only, and there is no external record. */
  @Override
  public void define(
      int contextId, long traceIdHigh, long traceIdLow, long spanId, byte traceFlags, byte[] attributes, int attributeSet) {}

  @Override
  public void switchTo(int contextId) {
    ringOfThread.get().append(System.nanoTime(), contextId);
  }

  @Override
  public synchronized void drain(TimelineSink sink) {
    if (off) {
      return;
    }
    for (Iterator<Registered> it = rings.iterator(); it.hasNext(); ) {
      Registered r = it.next();
      // Read "ended" before draining, so nothing written before the end is missed.
      boolean ended = r.threadEnded();
      sink.ringDrained(r.ring.drainTo(sink, scratch));
      if (ended) {
        it.remove();
        sink.threadEnded(r.ring.javaThreadId);
      }
    }
  }

  /**
   * Switched off: the rings of ended threads are dropped, the others held weakly until switched on
   * again (then the rings whose threads ended meanwhile are gone, and are dropped too).
   */
  @Override
  public synchronized void switchedOff(boolean switchedOff) {
    off = switchedOff;
    for (Iterator<Registered> it = rings.iterator(); it.hasNext(); ) {
      Registered r = it.next();
      TimelineRing ring = r.weakRing.get();
      if (ring == null || switchedOff && r.threadEnded()) {
        it.remove();
      } else {
        r.ring = switchedOff ? null : ring;
      }
    }
  }

  /** Nothing outside the JVM can read a Java timeline. */
  @Override
  public boolean publishProcessContext(byte[] payload) {
    return false;
  }

  /**
   * Rings currently held (threads that switched context and have not been retired; while switched
   * off, those the garbage collector has not freed yet).
   */
  public synchronized int ringCount() {
    int count = 0;
    for (Registered r : rings) {
      if (r.ring != null || r.weakRing.get() != null) {
        count++;
      }
    }
    return count;
  }

  @Override
  public String implementation() {
    return "java (no native thread-context record)";
  }
}
