package io.spanflight.benchmarks;

import static net.bytebuddy.matcher.ElementMatchers.named;

import io.spanflight.internal.instrumentation.MethodHooks;
import io.spanflight.internal.instrumentation.bootstrap.MethodClock;
import io.spanflight.internal.instrumentation.bootstrap.MethodCounters;
import io.spanflight.internal.instrumentation.bootstrap.MethodStacks;
import io.spanflight.internal.instrumentation.bootstrap.ThreadSlots;
import io.spanflight.internal.instrumentation.bootstrap.TraceQueue;
import java.lang.invoke.MethodHandles;
import java.util.concurrent.TimeUnit;
import java.util.function.LongUnaryOperator;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.dynamic.loading.ClassLoadingStrategy;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the method hooks of JDK 17 and 21 add to a call of a method in the filter: the same small
 * method untraced, with the timing advice ({@code methodtiming}) and with timing and tracing
 * ({@code methodtrace} too), the advice applied by ByteBuddy exactly as the hooks apply it
 * ({@link MethodHooks#advice}, on copies of {@link Target} under other names, as no agent runs in a
 * JMH fork). Budget: at most 50 ns added per traced call, 0 bytes allocated (run with {@code
 * -prof gc}).
 *
 * <p>Each invocation makes {@value #CALLS} calls; the traced variant then drains the trace queue,
 * as Spanflight's background thread would, so offers never hit a full ring. That drain (a few
 * nanoseconds per call) is counted in: the figure is an upper bound. {@code clockOnly} is the floor
 * any measuring hook pays: two {@code System.nanoTime()} reads around the call. With {@code -p
 * stacksPerSecond=-1} every traced call captures its callers' stack (the cost of one stack); with
 * {@code 100}, the rate Spanflight allows per method.
 */
@BenchmarkMode(org.openjdk.jmh.annotations.Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class MethodHookBenchmark {
  static final int CALLS = 256;

  /** The measured method: a few arithmetic instructions. */
  public static class Target implements LongUnaryOperator {
    @Override
    public long applyAsLong(long x) {
      return x * 6364136223846793005L + 1442695040888963407L;
    }
  }

  /**
   * Per traced method, calls a second that get their callers' stack: 0 none (the default), -1
   * every call (the cost of one stack), else as in production.
   */
  @Param({"0"})
  public int stacksPerSecond;

  private final TraceQueue.Sink discard = (thread, start, end, id, stack) -> {};
  private TraceQueue traces;
  private LongUnaryOperator untraced;
  private LongUnaryOperator timed;
  private LongUnaryOperator traced;
  private long x = 1;
  private long clocked;

  @Setup
  public void hook() throws Exception {
    int stripes = MethodCounters.defaultStripes();
    ThreadSlots slots = new ThreadSlots(MethodHooks.THREAD_SLOTS);
    MethodCounters counters = new MethodCounters(16, MethodHooks.THREAD_SLOTS, stripes);
    traces = new TraceQueue(MethodHooks.THREAD_SLOTS, MethodHooks.SLOT_RING, stripes, 4096);
    MethodStacks stacks = stacksPerSecond == 0
        ? null
        : new MethodStacks(16, MethodHooks.STACK_DEPTH, stacksPerSecond < 0 ? 0 : 1_000_000_000L / stacksPerSecond, 0);
    MethodClock.configure(slots, counters, traces, stacks);
    untraced = new Target();
    timed = advised("TimedTarget", 0, MethodClock.TIMED);
    traced = advised("TracedTarget", 1, MethodClock.TIMED | MethodClock.TRACED);
  }

  private static LongUnaryOperator advised(String name, int id, int mode) throws Exception {
    Class<? extends Target> type = new ByteBuddy()
        .redefine(Target.class)
        .name(MethodHookBenchmark.class.getName() + "$" + name)
        .visit(MethodHooks.advice(named("applyAsLong"), id, mode))
        .make()
        .load(Target.class.getClassLoader(),
            ClassLoadingStrategy.UsingLookup.of(MethodHandles.privateLookupIn(Target.class, MethodHandles.lookup())))
        .getLoaded();
    return type.getConstructor().newInstance();
  }

  @Benchmark
  @OperationsPerInvocation(CALLS)
  public long untraced() {
    long v = x;
    for (int i = 0; i < CALLS; i++) {
      v = untraced.applyAsLong(v);
    }
    return x = v;
  }

  /**
   * The floor of any hook that measures a call: the untraced call between two {@code
   * System.nanoTime()} reads, their difference summed (what the hooks' clock alone costs here).
   */
  @Benchmark
  @OperationsPerInvocation(CALLS)
  public long clockOnly() {
    long v = x;
    long nanos = 0;
    for (int i = 0; i < CALLS; i++) {
      long start = System.nanoTime();
      v = untraced.applyAsLong(v);
      nanos += System.nanoTime() - start;
    }
    clocked = nanos;
    return x = v;
  }

  @Benchmark
  @OperationsPerInvocation(CALLS)
  public long timed() {
    long v = x;
    for (int i = 0; i < CALLS; i++) {
      v = timed.applyAsLong(v);
    }
    return x = v;
  }

  @Benchmark
  @OperationsPerInvocation(CALLS)
  public long timedAndTraced() {
    long v = x;
    for (int i = 0; i < CALLS; i++) {
      v = traced.applyAsLong(v);
    }
    traces.drain(discard);
    return x = v;
  }
}
