package io.spanflight.internal.instrumentation.bootstrap;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The callers of traced calls, as JFR's {@code jdk.MethodTrace} records them on JDK 25: the traced
 * method as leaf frame and its callers below it, at most {@code depth} frames (JFR's {@code
 * stackdepth}, 64 by default). Walking a stack costs microseconds and allocates, so a method's
 * calls get one at most every {@code intervalNanos} (per method: the first call after the interval
 * wins a CAS and walks); the others stay leaf-only (the reader counts them: their record has no
 * stack).
 *
 * <p>Not API: internal to Spanflight. Loaded by the bootstrap class loader; depends on nothing but
 * {@code java.base}.
 */
public final class MethodStacks {
  private static final VarHandle NEXT = MethodHandles.arrayElementVarHandle(long[].class);
  private static final String OWN_PACKAGE = MethodStacks.class.getPackageName() + ".";

  private final long[] next;
  private final long intervalNanos;
  private final StackWalker walker = StackWalker.getInstance();
  private final Function<Stream<StackWalker.StackFrame>, StackWalker.StackFrame[]> walk;

  /**
   * @param maxMethods method ids below this
   * @param depth frames per stack, traced method included
   * @param intervalNanos per method, the least time between two stacks; 0 for every call
   */
  public MethodStacks(int maxMethods, int depth, long intervalNanos) {
    this.next = new long[maxMethods];
    this.intervalNanos = intervalNanos;
    long now = System.nanoTime();
    Arrays.fill(next, now);
    this.walk = frames -> frames
        .dropWhile(frame -> frame.getClassName().startsWith(OWN_PACKAGE))
        .limit(depth)
        .toArray(StackWalker.StackFrame[]::new);
  }

  /**
   * The stack of the calling traced method (a {@code StackWalker.StackFrame[]}, leaf first), or
   * null when method {@code id} had one less than the interval before {@code now}.
   */
  Object capture(int id, long now) {
    long due = next[id];
    if (now - due < 0 || !NEXT.compareAndSet(next, id, due, now + intervalNanos)) {
      return null;
    }
    return walker.walk(walk);
  }
}
