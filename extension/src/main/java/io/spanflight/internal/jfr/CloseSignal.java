package io.spanflight.internal.jfr;

/**
 * Whether our stream was closed, and the waits of its thread that closing ends at once: the pause
 * between two reads of our recording, the pause before a new recording is started (after someone
 * else closed ours), and the wait for the end of the diagnostic mode jfr-only. JFR's own shutdown
 * hook closes every recording, ours included: a recording that ends while the JVM shuts down is not
 * started again.
 *
 * <p>Not API: internal to Spanflight.
 */
final class CloseSignal {
  /** The pause between two reads of our recording, whichever reader reads it. */
  static final long POLL_MILLIS = 250;
  /** How long a close waits for a thread that reads our recording to end. */
  static final long CLOSE_WAIT_MILLIS = 5000;

  private final Object lock = new Object();
  private volatile boolean closed;

  boolean closed() {
    return closed;
  }

  /** Marks the stream closed and wakes the waits. */
  void close() {
    closed = true;
    synchronized (lock) {
      lock.notifyAll();
    }
  }

  /** Waits {@code millis} or until closed; false when closed meanwhile (or interrupted). */
  boolean pause(long millis) {
    long deadline = System.nanoTime() + millis * 1_000_000L;
    synchronized (lock) {
      long left;
      while (!closed && (left = deadline - System.nanoTime()) > 0) {
        try {
          lock.wait(Math.max(1, left / 1_000_000L));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return false;
        }
      }
    }
    return !closed;
  }

  /** Waits until closed. */
  void awaitClose() throws InterruptedException {
    synchronized (lock) {
      while (!closed) {
        lock.wait();
      }
    }
  }

  /** Whether the JVM is shutting down (shutdown hooks can no longer be added). */
  static boolean jvmShuttingDown() {
    Thread probe = new Thread(() -> {});
    try {
      Runtime.getRuntime().addShutdownHook(probe);
      Runtime.getRuntime().removeShutdownHook(probe);
      return false;
    } catch (IllegalStateException e) {
      return true;
    }
  }
}
