package io.spanflight.internal.instrumentation;

import io.spanflight.internal.instrumentation.bootstrap.MethodClock;
import io.spanflight.internal.instrumentation.bootstrap.MethodCounters;
import io.spanflight.internal.instrumentation.bootstrap.MethodStacks;
import io.spanflight.internal.instrumentation.bootstrap.ThreadSlots;
import io.spanflight.internal.instrumentation.bootstrap.TraceQueue;
import java.lang.instrument.Instrumentation;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.agent.builder.ResettableClassFileTransformer;
import net.bytebuddy.asm.AsmVisitorWrapper;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * Method timing and tracing on JDKs without JFR's {@code jdk.MethodTiming}/{@code jdk.MethodTrace}
 * (before 25), installed with the agent's {@link Instrumentation}:
 *
 * <ol>
 *   <li>appends {@link MethodClock} and the counters and queue it writes to the bootstrap class
 *       path (advice inlined into a class of any class loader can call it there), and hands it
 *       {@link ThreadSlots}, {@link MethodCounters}, a {@link TraceQueue} and {@link MethodStacks}
 *       (a thread's slot's cells and ring are allocated on its first hooked call, then reused);
 *   <li>instruments the selected methods ({@link MethodInstrumentation}), loaded ones at once;
 *   <li>on a filter change, resets that transformer (its classes are retransformed back) and
 *       installs one for the new filters: methods leave and join without a restart.
 * </ol>
 *
 * <p>After each install, one log line names the filter parts that matched no method of a loaded
 * class (they still apply to classes loaded later); methods beyond the cap are named by {@link
 * #takeRefused()}. Why not the agent's {@code InstrumentationModule} SPI: as for {@link
 * VirtualThreadHooks}, the order of boot-path setup and transformation must be ours, and the
 * filters change at run time.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class MethodHooks {
  static final String[] BOOT_CLASSES = {
    "io.spanflight.internal.instrumentation.bootstrap.MethodClock",
    "io.spanflight.internal.instrumentation.bootstrap.MethodClock$Sinks",
    "io.spanflight.internal.instrumentation.bootstrap.ThreadSlots",
    "io.spanflight.internal.instrumentation.bootstrap.MethodCounters",
    "io.spanflight.internal.instrumentation.bootstrap.MethodStacks",
    "io.spanflight.internal.instrumentation.bootstrap.TraceRing",
    "io.spanflight.internal.instrumentation.bootstrap.TraceQueue",
    "io.spanflight.internal.instrumentation.bootstrap.TraceQueue$Sink",
  };
  /** Threads with a slot of their own (no atomics per call); the others share stripes. */
  public static final int THREAD_SLOTS = 64;
  /** Traced calls a slot's own ring holds between two drains before it spills into the shared rings. */
  public static final int SLOT_RING = 512;
  /** Frames of a traced call's stack below the traced method: JFR's default {@code stackdepth}. */
  public static final int STACK_DEPTH = 64;
  /** Stacks walked at install, before any traced call (the first walks are the slow ones). */
  static final int STACK_WARM_UP = 200;
  private static final String[] SOURCES = {"methodtiming", "methodtrace"};
  private static final Logger logger = Logger.getLogger("io.spanflight");

  private final Instrumentation instrumentation;
  private final MethodIds ids;
  private final ThreadSlots slots;
  private final MethodCounters counters;
  private final TraceQueue traces;
  private final MethodStacks stacks;
  private ResettableClassFileTransformer transformer; // guarded by this
  private MethodSelection selection = new MethodSelection(MethodFilter.NONE, MethodFilter.NONE);

  private MethodHooks(Instrumentation instrumentation, int maxMethods, int traceCapacity, MethodStacks stacks) {
    this.instrumentation = instrumentation;
    this.ids = new MethodIds(maxMethods);
    int stripes = MethodCounters.defaultStripes();
    this.slots = new ThreadSlots(THREAD_SLOTS);
    this.counters = new MethodCounters(maxMethods, THREAD_SLOTS, stripes);
    this.traces = new TraceQueue(
        THREAD_SLOTS, SLOT_RING, stripes, Math.max(16, Integer.highestOneBit(traceCapacity / stripes)));
    this.stacks = stacks;
  }

  /**
   * Prepares the hooks (no method is instrumented before {@link #select}); throws with a message
   * saying why they cannot work here.
   *
   * @param maxMethods the most methods ever instrumented
   * @param traceCapacity traced calls that may wait for {@link #drainTraces} in the shared rings
   *     (threads with a slot of their own have {@value #SLOT_RING} more each)
   * @param stacksPerSecond per traced method, the most calls a second that get their callers'
   *     stack; 0 for none (traced method alone)
   * @param allStacksPerSecond the same over all traced methods together
   */
  public static MethodHooks prepare(
      Path jarDirectory, int maxMethods, int traceCapacity, int stacksPerSecond, int allStacksPerSecond)
      throws Exception {
    Instrumentation instrumentation = AgentInstrumentation.get();
    if (instrumentation == null || !instrumentation.isRetransformClassesSupported()) {
      throw new IllegalStateException("the javaagent's Instrumentation cannot retransform classes");
    }
    Class<?> clock = BootClasses.load(instrumentation, jarDirectory, "spanflight-methods.jar", BOOT_CLASSES);
    if (clock != MethodClock.class) {
      throw new IllegalStateException("MethodClock is not the boot class path's copy");
    }
    long second = TimeUnit.SECONDS.toNanos(1);
    MethodStacks stacks = stacksPerSecond <= 0 || allStacksPerSecond <= 0
        ? null
        : new MethodStacks(maxMethods, STACK_DEPTH, second / stacksPerSecond, second / allStacksPerSecond);
    if (stacks != null) {
      stacks.warmUp(STACK_WARM_UP);
    }
    MethodHooks hooks = new MethodHooks(instrumentation, maxMethods, traceCapacity, stacks);
    MethodClock.configure(hooks.slots, hooks.counters, hooks.traces, hooks.stacks);
    return hooks;
  }

  /**
   * Hooks that instrument nothing ({@link #select} must not be called), for tests and benchmarks:
   * they call {@link MethodClock#exit} as the advice would, for methods named with {@link
   * MethodIds#idOf}. Replaces what {@link MethodClock} wrote to.
   */
  public static MethodHooks detached(int maxMethods, int traceCapacity, MethodStacks stacks) {
    MethodHooks hooks = new MethodHooks(null, maxMethods, traceCapacity, stacks);
    MethodClock.configure(hooks.slots, hooks.counters, hooks.traces, hooks.stacks);
    return hooks;
  }

  /**
   * The advice {@link #select} gives each selected method ({@code id} from {@link MethodIds},
   * {@code mode} of {@link MethodClock#TIMED} and {@link MethodClock#TRACED}), on the methods
   * {@code methods} matches: for a benchmark that applies it without an agent, exactly as here.
   */
  public static AsmVisitorWrapper advice(ElementMatcher<? super MethodDescription> methods, int id, int mode) {
    return MethodInstrumentation.advice(methods, id, mode);
  }

  /**
   * Instruments the methods of the two filters (JDK syntax; empty for none) instead of those of
   * the previous call. Logs one line naming the filter parts that matched no method of the classes
   * loaded so far (at startup, usually all of them), and returns it (null when all matched).
   */
  public synchronized String select(String timingFilter, String traceFilter) {
    if (transformer != null) {
      transformer.reset(instrumentation, AgentBuilder.RedefinitionStrategy.RETRANSFORMATION);
      transformer = null;
    }
    selection = new MethodSelection(MethodFilter.parse(timingFilter), MethodFilter.parse(traceFilter));
    if (selection.isEmpty()) {
      return null;
    }
    transformer = MethodInstrumentation.install(instrumentation, selection, ids);
    List<String> unmatched = new ArrayList<>();
    unmatched(SOURCES[0], selection.timing, unmatched);
    unmatched(SOURCES[1], selection.trace, unmatched);
    if (unmatched.isEmpty()) {
      return null;
    }
    String line = "Spanflight: method filter parts that match no method of the classes loaded so far: "
        + String.join("; ", unmatched)
        + " (classes of the JDK, the agent and Spanflight are never instrumented); they apply to classes"
        + " loaded later";
    logger.info(line);
    return line;
  }

  private static void unmatched(String source, MethodFilter filter, List<String> lines) {
    List<String> parts = filter.unmatchedParts();
    if (!parts.isEmpty()) {
      lines.add(source + " " + parts);
    }
  }

  /** The current filters, as given: {timing, trace}. */
  public synchronized String[] filters() {
    return new String[] {selection.timing.toString(), selection.trace.toString()};
  }

  /** Methods refused since the last call because the cap was reached (count and first names), or null. */
  public String takeRefused() {
    return ids.takeRefused();
  }

  public MethodIds ids() {
    return ids;
  }

  public MethodCounters counters() {
    return counters;
  }

  /**
   * Hands every traced call queued so far to {@code sink}, then frees the slots of threads that
   * ended; one caller at a time.
   */
  public int drainTraces(TraceQueue.Sink sink) {
    int drained = traces.drain(sink);
    slots.releaseDead();
    return drained;
  }

  public long droppedTraces() {
    return traces.dropped();
  }

  /** The advice stays but counts nothing any more (at shutdown). */
  public static void disconnect() {
    try {
      Class.forName(BOOT_CLASSES[0], true, null).getMethod("clear").invoke(null);
    } catch (ReflectiveOperationException | LinkageError e) {
      // never installed: nothing to disconnect
    }
  }
}
