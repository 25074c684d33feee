package io.spanflight.internal.instrumentation.bootstrap;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The callers of traced calls, as JFR's {@code jdk.MethodTrace} records them on JDK 25: the traced
 * method as leaf frame and its callers below it, at most {@code callers} of them (JFR's {@code
 * stackdepth}, 64 by default), hidden and reflection frames included as in JFR's stacks. Walking a
 * stack costs microseconds and allocates a few kilobytes, so a method's calls get one at most every
 * {@code intervalNanos}, and all methods together at most one every {@code globalIntervalNanos}
 * (the first call after both intervals wins two CASes and walks); the others stay leaf-only (the
 * reader counts them: their record has no stack). A call that gets none pays one array read.
 *
 * <p>Not API: internal to Spanflight. Loaded by the bootstrap class loader; depends on nothing but
 * {@code java.base}.
 */
public final class MethodStacks {
  private static final VarHandle NEXT = MethodHandles.arrayElementVarHandle(long[].class);

  /** Per method id, when its next stack is due; at {@link #global}, when the next of any is. */
  private final long[] next;
  private final int global;
  private final long intervalNanos;
  private final long globalIntervalNanos;
  private final StackWalker walker = StackWalker.getInstance(
      // the class reference: a frame's descriptor needs it
      Set.of(StackWalker.Option.SHOW_HIDDEN_FRAMES, StackWalker.Option.RETAIN_CLASS_REFERENCE));
  private final Function<Stream<StackWalker.StackFrame>, StackWalker.StackFrame[]> walk;

  /**
   * @param maxMethods method ids below this
   * @param callers frames per stack below the traced method
   * @param intervalNanos per method, the least time between two stacks; 0 for every call
   * @param globalIntervalNanos over all methods, the least time between two stacks
   */
  public MethodStacks(int maxMethods, int callers, long intervalNanos, long globalIntervalNanos) {
    this.global = maxMethods + 8; // a cache line of its own
    this.next = new long[global + 8];
    this.intervalNanos = intervalNanos;
    this.globalIntervalNanos = globalIntervalNanos;
    long now = System.nanoTime();
    Arrays.fill(next, now);
    this.walk = frames -> frames
        .dropWhile(frame -> frame.getDeclaringClass() == MethodStacks.class || frame.getDeclaringClass() == MethodClock.class)
        .limit(callers + 1L)
        .toArray(StackWalker.StackFrame[]::new);
  }

  /**
   * Walks {@code times} stacks here, so that the first traced calls do not pay for loading and
   * linking the walker's classes and lambdas (tens of milliseconds, seen by the application as a
   * slow call); for the thread that installs the hooks.
   */
  public void warmUp(int times) {
    for (int i = 0; i < times; i++) {
      walker.walk(walk);
    }
  }

  /**
   * The stack of the calling traced method (a {@code StackWalker.StackFrame[]}, leaf first), or
   * null when method {@code id} had one less than the interval before {@code now}.
   */
  Object capture(int id, long now) {
    long due = next[id];
    if (now - due < 0) {
      return null;
    }
    long globalDue = (long) NEXT.getVolatile(next, global);
    if (now - globalDue < 0
        || !NEXT.compareAndSet(next, id, due, now + intervalNanos)
        || !NEXT.compareAndSet(next, global, globalDue, now + globalIntervalNanos)) {
      return null;
    }
    return walker.walk(walk);
  }
}
