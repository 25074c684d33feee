package io.spanflight.internal.jfr;

import io.spanflight.internal.threads.OwnThreads;
import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Map;

/**
 * What the application's platform threads did since the last call: CPU time and bytes allocated,
 * summed over the live threads that are not Spanflight's own (virtual threads run on carriers,
 * which count). A thread that ended between two calls loses its last stretch: the sums err low.
 * Read once per export interval; costs one look at every thread.
 *
 * <p>Not API: internal to Spanflight.
 */
class ThreadWork {
  private final com.sun.management.ThreadMXBean threads;
  /** Per thread id: CPU nanoseconds and allocated bytes at the last call. */
  private Map<Long, long[]> last = new HashMap<>();

  ThreadWork() {
    java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
    this.threads = bean instanceof com.sun.management.ThreadMXBean ? (com.sun.management.ThreadMXBean) bean : null;
  }

  /** CPU nanoseconds and allocated bytes since the last call (zeros where the JVM cannot tell). */
  long[] sinceLast() {
    long[] work = new long[2];
    if (threads == null) {
      return work;
    }
    long[] ids = threads.getAllThreadIds();
    long[] cpu = threads.isThreadCpuTimeEnabled() ? threads.getThreadCpuTime(ids) : new long[ids.length];
    long[] allocated = threads.isThreadAllocatedMemoryEnabled() ? threads.getThreadAllocatedBytes(ids) : new long[ids.length];
    Map<Long, long[]> now = new HashMap<>();
    for (int i = 0; i < ids.length; i++) {
      if (OwnThreads.contains(ids[i]) || cpu[i] < 0 || allocated[i] < 0) {
        continue;
      }
      long[] before = last.get(ids[i]);
      if (before != null) {
        work[0] += Math.max(0, cpu[i] - before[0]);
        work[1] += Math.max(0, allocated[i] - before[1]);
      }
      now.put(ids[i], new long[] {cpu[i], allocated[i]});
    }
    last = now;
    return work;
  }
}
