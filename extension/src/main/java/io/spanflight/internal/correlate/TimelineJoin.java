package io.spanflight.internal.correlate;

import io.spanflight.internal.costs.SpanCostTable;
import io.spanflight.internal.filter.SampleFilters;
import io.spanflight.internal.format.CostKind;
import io.spanflight.internal.profile.InternedStacks;
import io.spanflight.internal.profile.SampleType;
import io.spanflight.internal.registry.ContextRecord;
import io.spanflight.internal.registry.ContextRegistry;
import io.spanflight.internal.registry.ReadWindow;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The join's rules, without JFR: a sample of a thread at an instant leaves with the context the
 * thread's timeline held then, or with none, and is counted. For each sample, in order:
 *
 * <ol>
 *   <li>its time, in the sampler's ticks, is placed on the timelines' clock ({@link SampleClock});
 *       where the clock cannot vouch for it, the sample is unknown (counted as unknown-clock);
 *   <li>the thread's timeline gives the context id then: an id, none (0), or {@link
 *       Timelines#UNKNOWN} (switches lost there, or pruned);
 *   <li>the id's {@link ContextRecord}, unless its slot was reused since: then the sample is
 *       unknown (counted as a stale id), never linked to the slot's new context;
 *   <li>a sample of a sampled span adds to that span's costs, before the filters (a span's cost is
 *       what it cost), and a wait or traced call of one may become a child span of it ({@link
 *       InferredFeed});
 *   <li>the {@link SampleFilters} keep it or not (an unknown sample is dropped where a filter
 *       applies: nothing can be said about it);
 *   <li>what is kept goes to the {@link Sink} with its link: the record, or null for no context or
 *       an unknown one. An unknown sample is never given a guessed context.
 * </ol>
 *
 * <p>The sample's stack and leaf method pass through untouched: indexes into the JFR reader's
 * constants, which the profile collector reads. Runs on one thread (the
 * JFR consumer thread); the counters and the watermark are read from others.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class TimelineJoin {
  /** Where the kept samples go (the profile collector). */
  public interface Sink {
    void add(SampleType type, int leaf, int stack, ContextRecord link, long epochNanos, long value);
  }

  private final SampleClock clock;
  private final Timelines timelines;
  private final ContextRegistry registry;
  /** Where the records this thread resolves are used (see {@link ReadWindow}). */
  private final ReadWindow window;
  /** Replaced between runs only ({@link #filters(SampleFilters)}); read by the joining thread. */
  private volatile SampleFilters filters;
  private final Sink sink;
  /** Per-span costs, or null when they are off. */
  private volatile SpanCostTable costs;
  /** The stacks the sink's indexes refer to, for inferred spans' frames; null: none. */
  private final InternedStacks stacks;
  /** Where the sample being joined lies on the nanoTime clock (set by {@link #contextAt}). */
  private long joinedAt;

  /**
   * The newest time, on the nanoTime clock, of an event the stream delivered (a calibration or a
   * joined sample): timelines are pruned behind it. Written by the joining thread.
   */
  private volatile long watermark = Long.MIN_VALUE;

  private final AtomicLong samples = new AtomicLong();
  private final AtomicLong linked = new AtomicLong();
  private final AtomicLong unknownTimeline = new AtomicLong();
  private final AtomicLong unknownClock = new AtomicLong();
  private final AtomicLong unknownStaleId = new AtomicLong();
  private final AtomicLong filtered = new AtomicLong();

  public TimelineJoin(
      SampleClock clock, Timelines timelines, ContextRegistry registry, SampleFilters filters, Sink sink) {
    this(clock, timelines, registry, filters, sink, null);
  }

  /** @param stacks what the sink's stack and leaf indexes refer to (the frames of inferred spans) */
  public TimelineJoin(SampleClock clock, Timelines timelines, ContextRegistry registry, SampleFilters filters,
      Sink sink, InternedStacks stacks) {
    this.stacks = stacks;
    this.clock = clock;
    this.timelines = timelines;
    this.registry = registry;
    this.window = registry.readWindow();
    this.filters = filters;
    this.sink = sink;
  }

  /**
   * Puts {@code next} in force for the samples joined from now on; called while profiling is off
   * (a run-time change of the context filters ends the run first), so no sample sees two filters.
   */
  public void filters(SampleFilters next) {
    this.filters = next;
  }

  /**
   * Joins one sample of source {@code sourceName} (whose events cost a span {@code costKind}, a
   * {@link CostKind}) taken on thread {@code javaThreadId} (negative: a thread without a Java id,
   * joined to no context) at {@code ticks}, and hands it to the sink if the filters keep it.
   */
  public void join(String sourceName, int costKind, SampleType type, long javaThreadId, boolean virtual,
      long ticks, int stack, int leaf, long epochNanos, long value) {
    join(sourceName, costKind, type, javaThreadId, virtual, ticks, stack, leaf, epochNanos, value, null);
  }

  /** {@link #join}, with what a socket or file event waited on ({@code address:port} or a path; else null). */
  public void join(String sourceName, int costKind, SampleType type, long javaThreadId, boolean virtual,
      long ticks, int stack, int leaf, long epochNanos, long value, String detail) {
    window.open();
    try {
      joinInWindow(sourceName, costKind, type, javaThreadId, virtual, ticks, stack, leaf, epochNanos, value, detail);
    } finally {
      window.close();
    }
  }

  /** {@link #join}, with the records it resolves held in the read window. */
  private void joinInWindow(String sourceName, int costKind, SampleType type, long javaThreadId,
      boolean virtual, long ticks, int stack, int leaf, long epochNanos, long value, String detail) {
    samples.incrementAndGet();
    ContextRecord link = null;
    boolean unknown = false;
    if (javaThreadId >= 0) {
      int context = contextAt(javaThreadId, virtual, ticks);
      link = context > 0 ? linkOf(context) : null;
      unknown = context == Timelines.UNKNOWN || context > 0 && link == null;
    }
    if (link != null && costKind != CostKind.NONE) {
      addCost(costKind, link, type, value); // before the filters: a span's cost is what it cost
    }
    SpanCostTable table = costs;
    if (link != null && table != null && table.inferred() != null) {
      InferredFeed.offer(table.inferred(), stacks, link, costKind, type.type(), javaThreadId, joinedAt, value, stack, leaf, detail);
    }
    if (!filters.keep(sourceName, link, unknown)) {
      filtered.incrementAndGet();
      return;
    }
    if (unknown) {
      unknownTimeline.incrementAndGet();
    }
    if (link != null && link.hasSpan()) {
      linked.incrementAndGet();
    }
    sink.add(type, leaf, stack, link, epochNanos, value);
  }

  /** Adds one sample to its span's costs: CPU samples weigh their period in force, others their value. */
  private void addCost(int costKind, ContextRecord link, SampleType type, long value) {
    SpanCostTable table = costs;
    if (table != null && link.hasSpan() && link.sampled()) {
      table.add(link.spanIdNumber(), costKind, costKind == CostKind.CPU ? type.period() : value, watermark);
    }
  }

  /** From now on, joined samples of sampled spans also go to {@code table}. */
  public void recordCosts(SpanCostTable table) {
    this.costs = table;
  }

  /**
   * The context {@code javaThreadId} (a virtual thread when {@code virtual}) was in at tick {@code
   * ticks}: an id, 0 (none) or {@link Timelines#UNKNOWN} (switches lost there, or the clock map not
   * within tolerance there).
   */
  public int contextAt(long javaThreadId, boolean virtual, long ticks) {
    if (!clock.trusted(ticks)) {
      unknownClock.incrementAndGet();
      return Timelines.UNKNOWN;
    }
    long at = clock.toNanoTime(ticks);
    joinedAt = at;
    advanceWatermark(at);
    return timelines.contextAt(javaThreadId, at, virtual);
  }

  /**
   * The record of a context id a timeline gave, or null (counted) when it no longer resolves: its
   * slot was reused since a thread got the id (that thread was preempted between getting and
   * writing it). The sample is then unknown, never joined to the slot's new context.
   */
  public ContextRecord linkOf(int context) {
    ContextRecord record = registry.resolve(context);
    if (record == null) {
      unknownStaleId.incrementAndGet();
    }
    return record;
  }

  /** Moves the watermark up to {@code nanoTime} (a delivered calibration's time); never back. */
  public void advanceWatermark(long nanoTime) {
    if (nanoTime > watermark) {
      watermark = nanoTime;
    }
  }

  /**
   * The newest time (nanoTime clock) of an event the stream has delivered, Long.MIN_VALUE before
   * the first: history older than this minus a margin is what no sample still needs.
   */
  public long watermarkNanos() {
    return watermark;
  }

  /** Samples joined since startup (with or without a span). */
  public long samples() {
    return samples.get();
  }

  /** Samples joined to a span. */
  public long linked() {
    return linked.get();
  }

  /**
   * Samples joined to no span because their context is unknown: the stretch of timeline had lost
   * switches or was pruned, its id was reused since, or the clock did not map there.
   */
  public long unknownTimeline() {
    return unknownTimeline.get();
  }

  /**
   * Samples marked unknown because the sampler's clock did not map onto System.nanoTime() within
   * the join tolerance at their time (a subset of {@link #unknownTimeline()}).
   */
  public long unknownClock() {
    return unknownClock.get();
  }

  /**
   * Samples marked unknown because the context id at their time no longer resolves: removed, or of
   * an earlier generation of its slot (a subset of {@link #unknownTimeline()}).
   */
  public long unknownStaleId() {
    return unknownStaleId.get();
  }

  /** Samples dropped by a context filter. */
  public long filtered() {
    return filtered.get();
  }
}
