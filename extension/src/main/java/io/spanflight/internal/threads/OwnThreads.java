package io.spanflight.internal.threads;

import java.lang.ref.WeakReference;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadFactory;

/**
 * Spanflight's own background threads, by Java thread id. JFR records their waits like any
 * thread's: an idle drain or export thread parks 10 ms to 10 s at a time, the JFR consumer waits
 * for the next flush, and those waits made about half of a quiet service's {@code park} events and
 * nine tenths of its {@code lock_wait} events. The join leaves such waits out of the profiles (and
 * counts them); the CPU and allocation samples of these threads stay, since they are what
 * Spanflight costs.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class OwnThreads {
  /** Above this many remembered threads, the ones that ended are forgotten (runs stopped and started again). */
  static final int PURGE_ABOVE = 32;

  private static final Map<Long, WeakReference<Thread>> byId = new ConcurrentHashMap<>();

  private OwnThreads() {}

  /** A daemon thread named {@code name} that runs {@code task}, remembered as Spanflight's own. */
  @SuppressWarnings("deprecation") // Thread.getId: threadId() is JDK 19+, we build for 17
  public static Thread newDaemon(Runnable task, String name) {
    Thread thread = new Thread(task, name);
    thread.setDaemon(true);
    if (byId.size() >= PURGE_ABOVE) {
      byId.values().removeIf(ref -> {
        Thread t = ref.get();
        return t == null || t.getState() == Thread.State.TERMINATED;
      });
    }
    byId.put(thread.getId(), new WeakReference<>(thread));
    return thread;
  }

  /** A factory of {@link #newDaemon} threads, all named {@code name} (for single-thread executors). */
  public static ThreadFactory factory(String name) {
    return task -> newDaemon(task, name);
  }

  /** Whether {@code javaThreadId} is a thread made here. */
  public static boolean contains(long javaThreadId) {
    return byId.containsKey(javaThreadId);
  }

  /** Threads remembered now (for tests). */
  static int size() {
    return byId.size();
  }
}
