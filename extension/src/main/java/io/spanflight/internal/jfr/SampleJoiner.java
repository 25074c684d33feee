package io.spanflight.internal.jfr;

import io.spanflight.internal.correlate.Timelines;
import io.spanflight.internal.costs.SpanCostTable;
import io.spanflight.internal.filter.SampleFilters;
import io.spanflight.internal.format.CostKind;
import io.spanflight.internal.profile.EpochClock;
import io.spanflight.internal.profile.ProfileCollector;
import io.spanflight.internal.profile.SampleType;
import io.spanflight.internal.registry.ContextRecord;
import io.spanflight.internal.registry.ContextRegistry;
import io.spanflight.internal.registry.ReadWindow;
import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicLong;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;

/**
 * The join: each JFR event goes to the timeline of its thread (the sampled thread of a sample
 * event, the event thread of a duration event), at the moment it was sampled or started, and
 * leaves with the span that was current there. Runs on the JFR consumer thread.
 * Samples that arrive before the clock is calibrated wait in a bounded queue.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class SampleJoiner {
  static final int MAX_PENDING = 50_000;
  static final long SETTINGS_WAIT_MILLIS = 3000;

  private final JfrClock clock;
  private final Timelines timelines;
  private final ContextRegistry registry;
  /** Where the records this thread resolves are used (see {@link ReadWindow}). */
  private final ReadWindow window;
  private final ProfileCollector collector;
  private final SampleFilters filters;
  /** Per-span costs, or null when they are off. */
  private volatile SpanCostTable costs;
  private final ArrayDeque<Pending> pending = new ArrayDeque<>();
  private long pendingSince;
  /** Whether this JVM's threads have JFR's {@code virtual} field; null until the first sample. */
  private Boolean threadsHaveVirtualField; // consumer thread
  /** Calibrations committed in a row because the newest point was off the line. */
  private int promptRecalibrations;
  static final int MAX_PROMPT_RECALIBRATIONS = 3;

  /**
   * What the join needs of one event that must wait, read when it arrives: the join itself takes
   * these values, not the event, so it reads no JFR event object (and the stream may reuse them).
   * The thread, stack and method are the chunk's constants.
   */
  private static final class Pending {
    final JfrSource source;
    final RecordedThread thread;
    final RecordedStackTrace stack;
    final RecordedMethod leaf;
    final long startTicks;
    final long startEpochNanos;
    final long value;

    Pending(JfrSource source, RecordedThread thread, RecordedStackTrace stack, RecordedMethod leaf,
        long startTicks, long startEpochNanos, long value) {
      this.source = source;
      this.thread = thread;
      this.stack = stack;
      this.leaf = leaf;
      this.startTicks = startTicks;
      this.startEpochNanos = startEpochNanos;
      this.value = value;
    }
  }

  /**
   * The newest time, on the nanoTime clock, of an event the stream delivered (a calibration or a
   * joined event): timelines are pruned behind it. Written by the JFR consumer thread.
   */
  private volatile long watermark = Long.MIN_VALUE;

  /** The newest calibration event's nanoTime that the stream delivered. */
  private long lastCalibration = Long.MIN_VALUE;

  final AtomicLong samples = new AtomicLong();
  final AtomicLong linked = new AtomicLong();
  final AtomicLong unknownTimeline = new AtomicLong();
  final AtomicLong unknownClock = new AtomicLong();
  final AtomicLong unknownStaleId = new AtomicLong();
  final AtomicLong dropped = new AtomicLong();
  final AtomicLong filtered = new AtomicLong();
  final AtomicLong belowThreshold = new AtomicLong();
  final AtomicLong calibrations = new AtomicLong();

  public SampleJoiner(
      JfrClock clock,
      Timelines timelines,
      ContextRegistry registry,
      ProfileCollector collector,
      SampleFilters filters) {
    this.filters = filters;
    this.clock = clock;
    this.timelines = timelines;
    this.registry = registry;
    this.window = registry.readWindow();
    this.collector = collector;
  }

  void onCalibration(RecordedEvent event) {
    clock.calibrate(event);
    calibrations.incrementAndGet();
    // A point off the line is a preempted calibration or a clock that left the line: until the
    // next point says which, samples turn unknown; ask for that point now (a few in a row at most).
    if (clock.lastCalibrationOffLine() && promptRecalibrations < MAX_PROMPT_RECALIBRATIONS) {
      promptRecalibrations++;
      CalibrationEvent.commitNow();
    } else if (!clock.lastCalibrationOffLine()) {
      promptRecalibrations = 0;
    }
    synchronized (this) {
      lastCalibration = Math.max(lastCalibration, event.getLong("nanoTime"));
      advanceWatermark(lastCalibration);
      notifyAll();
    }
    joinPending();
  }

  /**
   * An event of {@code source}; joined now, or once the clock is calibrated and, for a periodic
   * source, JFR has reported the period in force (its {@code jdk.ActiveSetting} events come at the
   * start of the stream's first chunk, possibly after its first samples). If that report does not
   * come within {@value #SETTINGS_WAIT_MILLIS} ms, the configured period is used.
   */
  void onEvent(JfrSource source, RecordedEvent event) {
    if (!pending.isEmpty()) {
      joinPending();
    }
    RecordedThread thread = event.getThread(source.threadField);
    RecordedStackTrace stack = event.getStackTrace();
    if (thread == null || stack == null) {
      dropped.incrementAndGet();
      return;
    }
    if (source.belowOurThreshold(event)) {
      belowThreshold.incrementAndGet(); // there because another recording asked for a lower threshold
      return;
    }
    RecordedMethod leaf = source.leafMethodField == null ? null : event.getValue(source.leafMethodField);
    long startTicks = event.getLong("startTime");
    long startEpochNanos = EpochClock.toNanos(event.getStartTime());
    long value = source.value.applyAsLong(event);
    if (!ready(source)) {
      if (pending.isEmpty()) {
        pendingSince = System.nanoTime();
      }
      if (pending.size() < MAX_PENDING) {
        pending.add(new Pending(source, thread, stack, leaf, startTicks, startEpochNanos, value));
      } else {
        dropped.incrementAndGet();
      }
      return;
    }
    join(source, thread, stack, leaf, startTicks, startEpochNanos, value);
  }

  private boolean ready(JfrSource source) {
    return clock.calibrated()
        && (source.typeForPeriod == null
            || source.inForce.changes() > 0
            || System.nanoTime() - pendingSince > SETTINGS_WAIT_MILLIS * 1_000_000L);
  }

  /** Joins the waiting events that can be joined now, in order; the others keep waiting. */
  private void joinPending() {
    int n = pending.size();
    for (int i = 0; i < n; i++) {
      Pending p = pending.poll();
      if (ready(p.source)) {
        join(p.source, p.thread, p.stack, p.leaf, p.startTicks, p.startEpochNanos, p.value);
      } else {
        pending.add(p);
      }
    }
  }

  private void join(JfrSource source, RecordedThread thread, RecordedStackTrace stack, RecordedMethod leaf,
      long startTicks, long startEpochNanos, long value) {
    window.open();
    try {
      joinInWindow(source, thread, stack, leaf, startTicks, startEpochNanos, value);
    } finally {
      window.close();
    }
  }

  /** {@link #join}, with the records it resolves held in the read window. */
  private void joinInWindow(JfrSource source, RecordedThread thread, RecordedStackTrace stack,
      RecordedMethod leaf, long startTicks, long startEpochNanos, long value) {
    samples.incrementAndGet();
    ContextRecord link = null;
    boolean unknown = false;
    long javaThreadId = thread.getJavaThreadId();
    if (javaThreadId >= 0) {
      int context = contextAt(javaThreadId, isVirtual(thread), startTicks);
      link = context > 0 ? linkOf(context) : null;
      unknown = context == Timelines.UNKNOWN || context > 0 && link == null;
    }
    SampleType type = source.typeAt(startTicks);
    if (link != null && source.costKind != CostKind.NONE) {
      addCost(source, link, type, value); // before the filters: a span's cost is what it cost
    }
    if (!filters.keep(source.sourceName, link, unknown)) {
      filtered.incrementAndGet();
      return;
    }
    if (unknown) {
      unknownTimeline.incrementAndGet();
    }
    if (link != null && link.hasSpan()) {
      linked.incrementAndGet();
    }
    collector.add(type, leaf, stack, link, startEpochNanos, value);
  }

  /** Adds one event to its span's costs: CPU samples weigh their period in force, others their value. */
  private void addCost(JfrSource source, ContextRecord link, SampleType type, long value) {
    SpanCostTable table = costs;
    if (table != null && link.hasSpan() && link.sampled()) {
      table.add(link.costKey(), source.costKind, source.costKind == CostKind.CPU ? type.period() : value, watermark);
    }
  }

  /** From now on, joined events of sampled spans also go to {@code table}. */
  public void recordCosts(SpanCostTable table) {
    this.costs = table;
  }

  /**
   * The context {@code javaThreadId} was in at JFR tick {@code ticks}: an id, 0 (none) or {@link
   * Timelines#UNKNOWN} (switches lost there, or the clock map not within tolerance there).
   */
  int contextAt(long javaThreadId, long ticks) {
    return contextAt(javaThreadId, false, ticks);
  }

  /** As {@link #contextAt(long, long)}, for a virtual thread when {@code virtual}. */
  int contextAt(long javaThreadId, boolean virtual, long ticks) {
    if (!clock.trusted(ticks)) {
      unknownClock.incrementAndGet();
      return Timelines.UNKNOWN;
    }
    long at = clock.toNanoTime(ticks);
    advanceWatermark(at);
    return timelines.contextAt(javaThreadId, at, virtual);
  }

  /**
   * The record of a context id a timeline gave, or null (counted) when it no longer resolves: its
   * slot was reused since a thread got the id (that thread was preempted between getting and
   * writing it). The sample is then unknown, never joined to the slot's new context.
   */
  ContextRecord linkOf(int context) {
    ContextRecord record = registry.resolve(context);
    if (record == null) {
      unknownStaleId.incrementAndGet();
    }
    return record;
  }

  /**
   * {@code RecordedThread.isVirtual()} exists from JDK 21 on; this class is compiled for 17. Whether
   * threads have the field is the same for every event of this JVM: looked up once (each lookup by
   * name walks the type's fields).
   */
  private boolean isVirtual(RecordedThread thread) {
    if (threadsHaveVirtualField == null) {
      threadsHaveVirtualField = thread.hasField("virtual");
    }
    return threadsHaveVirtualField && thread.getBoolean("virtual");
  }

  private void advanceWatermark(long nanoTime) {
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

  /**
   * Commits a calibration event and waits until the stream has delivered it, which means events
   * committed before it were delivered too; gives up after {@code timeoutMillis}.
   */
  public void awaitCalibrationCommittedNow(long timeoutMillis) throws InterruptedException {
    long mark = System.nanoTime();
    CalibrationEvent.commitNow();
    long deadline = mark + timeoutMillis * 1_000_000L;
    synchronized (this) {
      long now;
      while (lastCalibration < mark && (now = System.nanoTime()) < deadline) {
        wait(Math.max(1, (deadline - now) / 1_000_000L));
      }
    }
  }

  /**
   * The map of JFR ticks onto nanoTime. The JFR consumer thread refits it: read it from another
   * thread only once the stream has ended (tests that check the map against known instants).
   */
  public JfrClock clock() {
    return clock;
  }

  /** Events joined since startup (with or without a span). */
  public long samples() {
    return samples.get();
  }

  /** Events joined to a span. */
  public long linked() {
    return linked.get();
  }

  /**
   * Events joined to no span because their context is unknown: the stretch of timeline had lost
   * switches or was pruned, its id was reused since, or the clock did not map there.
   */
  public long unknownTimeline() {
    return unknownTimeline.get();
  }

  /**
   * Events marked unknown because the JFR clock did not map onto System.nanoTime() within the join
   * tolerance at their time (a subset of {@link #unknownTimeline()}).
   */
  public long unknownClock() {
    return unknownClock.get();
  }

  /**
   * Events marked unknown because the context id at their time no longer resolves: removed, or of
   * an earlier generation of its slot (a subset of {@link #unknownTimeline()}).
   */
  public long unknownStaleId() {
    return unknownStaleId.get();
  }

  /** Events dropped before the join (no thread or stack, or too many before calibration). */
  public long dropped() {
    return dropped.get();
  }

  /** Events dropped by a context filter. */
  public long filtered() {
    return filtered.get();
  }

  /**
   * Events of a threshold source shorter than our threshold, which arrived only because another
   * recording asked JFR for a lower one; not part of our profiles.
   */
  public long belowThreshold() {
    return belowThreshold.get();
  }

  /** Calibration events delivered so far. */
  public long calibrations() {
    return calibrations.get();
  }

  /** A one-line summary of the counters since startup. */
  public String summary() {
    return String.format(
        "samples=%d linked=%d unknown-timeline=%d (clock %d, stale id %d) filtered=%d dropped=%d"
            + " below-our-threshold=%d",
        samples.get(), linked.get(), unknownTimeline.get(), unknownClock.get(), unknownStaleId.get(),
        filtered.get(), dropped.get(),
        belowThreshold.get());
  }
}
