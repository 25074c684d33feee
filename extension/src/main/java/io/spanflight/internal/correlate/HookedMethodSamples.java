package io.spanflight.internal.correlate;

import io.spanflight.internal.config.SourceSettings;
import io.spanflight.internal.costs.InferredEvent;
import io.spanflight.internal.costs.InferredEvents;
import io.spanflight.internal.filter.SampleFilters;
import io.spanflight.internal.instrumentation.MethodHooks;
import io.spanflight.internal.instrumentation.bootstrap.TraceQueue;
import io.spanflight.internal.profile.EpochClock;
import io.spanflight.internal.profile.ProfileCollector;
import io.spanflight.internal.profile.SampleType;
import io.spanflight.internal.registry.ContextRecord;
import io.spanflight.internal.registry.ContextRegistry;
import io.spanflight.internal.registry.ReadWindow;
import java.util.Arrays;

/**
 * Turns what the method hooks of JDK 17 and 21 ({@link MethodHooks}) collected into the samples
 * that JFR's {@code jdk.MethodTiming} and {@code jdk.MethodTrace} give on JDK 25: per timed method
 * and drain, the increase of its invocations ({@code method_invocations}) and nanoseconds ({@code
 * method_time}), without a span; per traced call, its duration ({@code method_trace}) with the
 * traced method as leaf frame and, for the calls the hooks captured a stack for, its callers below
 * it (the others: the method alone), linked to the span its thread was in when the call began
 * (the timeline join, as for JFR's duration events). Runs on the housekeeping thread, once a second,
 * before the timelines are pruned.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class HookedMethodSamples implements TraceQueue.Sink {
  static final SampleType TIME = SampleType.nanoseconds("method_time");
  static final SampleType CALLS = SampleType.invocations("method_invocations");
  static final SampleType TRACE = SampleType.nanoseconds("method_trace");

  private final MethodHooks hooks;
  private final Timelines timelines;
  private final ContextRegistry registry;
  /** Where the records it resolves are used (see {@link ReadWindow}). */
  private final ReadWindow window;
  private final ProfileCollector collector;
  private final SampleFilters filters;
  /** Per method id: {calls, nanos} as of the previous drain. */
  private long[] previous = new long[0];
  private final long[] read = new long[2];
  /** Epoch nanoseconds minus System.nanoTime(), measured at each drain. */
  private long epochOffset;
  private boolean keepTraces = true;
  private long leafOnly;
  /** Where traced calls of sampled spans go to become child spans; null: nowhere. */
  private volatile InferredEvents inferred;
  private volatile long drainedUpTo = Long.MIN_VALUE;

  public HookedMethodSamples(
      MethodHooks hooks, Timelines timelines, ContextRegistry registry, ProfileCollector collector, SampleFilters filters) {
    this.hooks = hooks;
    this.timelines = timelines;
    this.registry = registry;
    this.window = registry.readWindow();
    this.collector = collector;
    this.filters = filters;
  }

  /** Forgets what was counted and queued so far (profiling was off): the next drain starts here. */
  public synchronized void baseline() {
    readCounters(false);
    keepTraces = false;
    hooks.drainTraces(this);
    keepTraces = true;
  }

  /** Adds the calls since the previous drain to the current interval. */
  public synchronized void drain() {
    long mark = System.nanoTime();
    epochOffset = EpochClock.nowNanos() - mark;
    readCounters(true);
    hooks.drainTraces(this);
    drainedUpTo = mark;
  }

  /**
   * When the latest drain began (nanoTime clock; Long.MIN_VALUE before the first): every call that
   * returned before it has been handed on.
   */
  public long drainedUpTo() {
    return drainedUpTo;
  }

  private void readCounters(boolean add) {
    int methods = hooks.ids().size();
    if (previous.length < 2 * methods) {
      previous = Arrays.copyOf(previous, 2 * methods);
    }
    long when = System.nanoTime() + epochOffset;
    for (int id = 0; id < methods; id++) {
      hooks.counters().read(id, read);
      long calls = read[0] - previous[2 * id];
      long nanos = read[1] - previous[2 * id + 1];
      previous[2 * id] = read[0];
      previous[2 * id + 1] = read[1];
      if (add && calls > 0) {
        String[] name = hooks.ids().name(id);
        collector.addMethod(CALLS, name[0], name[1], name[2], null, null, when, calls);
        collector.addMethod(TIME, name[0], name[1], name[2], null, null, when, Math.max(0, nanos));
      }
    }
  }

  /** From now on, traced calls of sampled spans also go to {@code events} (to become child spans). */
  public void recordInferred(InferredEvents events) {
    this.inferred = events;
  }

  /** Traced calls exported with the traced method alone (no stack captured for them), so far. */
  public synchronized long leafOnly() {
    return leafOnly;
  }

  @Override
  public void traced(long threadId, long startNanos, long endNanos, int methodId, Object stack) {
    if (!keepTraces) {
      return;
    }
    window.open();
    try {
      addTraced(threadId, startNanos, endNanos, methodId, stack);
    } finally {
      window.close();
    }
  }

  private void addTraced(long threadId, long startNanos, long endNanos, int methodId, Object stack) {
    int context = timelines.contextAt(threadId, startNanos);
    ContextRecord link = context > 0 ? registry.resolve(context) : null;
    boolean unknown = context == Timelines.UNKNOWN || context > 0 && link == null;
    String[] name = hooks.ids().name(methodId);
    StackWalker.StackFrame[] frames = stack instanceof StackWalker.StackFrame[] ? (StackWalker.StackFrame[]) stack : null;
    InferredEvents events = inferred;
    long duration = endNanos - startNanos;
    if (events != null && link != null && InferredFeed.wanted(events, link, true, duration)) {
      events.add(link.spanIdNumber(), new InferredEvent(InferredFeed.METHOD_TRACE, startNanos, duration, threadId,
          name[0] + "." + name[1], InferredFeed.text(frames), null), System.nanoTime());
    }
    if (!filters.keep(SourceSettings.METHOD_TRACE, link, unknown)) {
      return;
    }
    if (frames == null) {
      leafOnly++;
    }
    collector.addMethod(
        TRACE, name[0], name[1], name[2], frames, link, startNanos + epochOffset, endNanos - startNanos);
  }
}
