package io.spanflight.internal.instrumentation.bootstrap;

/**
 * The bootstrap-visible end of method timing and tracing on JDK 17 and 21 (JDK 25 has JFR's
 * {@code jdk.MethodTiming} and {@code jdk.MethodTrace} instead): advice inlined into an
 * application method reads {@code System.nanoTime()} on entry and calls {@link #exit} on exit,
 * with the method's id and mode as constants baked into the advice. Timed calls add into
 * {@link MethodCounters}; traced calls go into the {@link TraceQueue}, which Spanflight's
 * background thread drains, some with their callers' stack ({@link MethodStacks}). Both write
 * into the calling thread's own {@link ThreadSlots slot} when it has one: no atomic instruction,
 * no allocation (but for a captured stack), no lock.
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

  /** Everything a call writes to, swapped as one. */
  private static volatile Sinks sinks;

  private MethodClock() {}

  private static final class Sinks {
    final ThreadSlots slots;
    final MethodCounters counters;
    final TraceQueue traces;
    final MethodStacks stacks;

    Sinks(ThreadSlots slots, MethodCounters counters, TraceQueue traces, MethodStacks stacks) {
      this.slots = slots;
      this.counters = counters;
      this.traces = traces;
      this.stacks = stacks;
    }
  }

  /** Where calls go from now on; {@code stacks} null for traced calls without their callers. */
  public static void configure(ThreadSlots slots, MethodCounters timed, TraceQueue traced, MethodStacks stacks) {
    sinks = new Sinks(slots, timed, traced, stacks);
  }

  /** Calls are no longer counted or queued (the advice stays until retransformed). */
  public static void clear() {
    sinks = null;
  }

  public static MethodCounters counters() {
    Sinks s = sinks;
    return s == null ? null : s.counters;
  }

  /**
   * Called by the advice when method {@code id} returns or throws.
   *
   * @param mode {@link #TIMED}, {@link #TRACED} or both
   * @param start {@code System.nanoTime()} when the method was entered
   */
  public static void exit(int id, int mode, long start) {
    long end = System.nanoTime();
    Sinks s = sinks;
    if (s == null) {
      return;
    }
    Thread thread = Thread.currentThread();
    long threadId = thread.getId();
    int slot = s.slots.slotOf(thread, threadId);
    if ((mode & TIMED) != 0) {
      s.counters.add(slot, id, threadId, end - start);
    }
    if ((mode & TRACED) != 0) {
      Object stack = s.stacks == null ? null : s.stacks.capture(id, end);
      s.traces.offer(slot, threadId, start, end, id, stack);
    }
  }
}
