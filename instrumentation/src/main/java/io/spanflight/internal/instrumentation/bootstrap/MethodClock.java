package io.spanflight.internal.instrumentation.bootstrap;

/**
 * The bootstrap-visible end of method timing and tracing on JDK 17 and 21 (JDK 25 has JFR's
 * {@code jdk.MethodTiming} and {@code jdk.MethodTrace} instead): advice inlined into an
 * application method reads {@code System.nanoTime()} on entry and calls {@link #exit} on exit,
 * with the method's id and mode as constants baked into the advice. Timed calls add into
 * {@link MethodCounters}; traced calls go into the {@link TraceQueue}, which Spanflight's
 * background thread drains. Nothing here allocates or blocks.
 *
 * <p>Until {@link #configure} and after {@link #clear()}, calls are not counted.
 *
 * <p>Not API: internal to Spanflight. Loaded by the bootstrap class loader; depends on nothing but
 * {@code java.base}.
 */
public final class MethodClock {
  /** Mode bit: the method is in the {@code methodtiming} filter. */
  public static final int TIMED = 1;
  /** Mode bit: the method is in the {@code methodtrace} filter. */
  public static final int TRACED = 2;

  private static volatile MethodCounters counters;
  private static volatile TraceQueue traces;

  private MethodClock() {}

  /** Where calls go from now on. */
  public static void configure(MethodCounters timed, TraceQueue traced) {
    counters = timed;
    traces = traced;
  }

  /** Calls are no longer counted or queued (the advice stays until retransformed). */
  public static void clear() {
    counters = null;
    traces = null;
  }

  public static MethodCounters counters() {
    return counters;
  }

  public static TraceQueue traces() {
    return traces;
  }

  /**
   * Called by the advice when method {@code id} returns or throws.
   *
   * @param mode {@link #TIMED}, {@link #TRACED} or both
   * @param start {@code System.nanoTime()} when the method was entered
   */
  public static void exit(int id, int mode, long start) {
    long end = System.nanoTime();
    long threadId = Thread.currentThread().getId();
    if ((mode & TIMED) != 0) {
      MethodCounters c = counters;
      if (c != null) {
        c.add(id, threadId, end - start);
      }
    }
    if ((mode & TRACED) != 0) {
      TraceQueue t = traces;
      if (t != null) {
        t.offer(threadId, start, end, id);
      }
    }
  }
}
