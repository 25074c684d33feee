package io.spanflight.internal.jfr.join;

import io.spanflight.internal.correlate.TimelineJoin;
import io.spanflight.internal.correlate.Timelines;
import io.spanflight.internal.costs.SpanCostTable;
import io.spanflight.internal.filter.SampleFilters;
import io.spanflight.internal.jfr.chunk.ConstantStore;
import io.spanflight.internal.jfr.clock.CalibrationEvent;
import io.spanflight.internal.jfr.clock.JfrClock;
import io.spanflight.internal.profile.InternedStacks;
import io.spanflight.internal.profile.ProfileCollector;
import io.spanflight.internal.registry.ContextRecord;
import io.spanflight.internal.registry.ContextRegistry;
import io.spanflight.internal.threads.OwnThreads;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongPredicate;

/**
 * The JFR side of the join: takes what the join needs of each event as the reader gives it (the
 * thread to join on, the sampled thread of a sample event or the event thread of a duration event;
 * its stack and leaf as indexes of the reader's {@link ConstantStore}, start and value), feeds the
 * calibration events to the {@link JfrClock}, and hands the values to the JFR-free {@link
 * TimelineJoin}, whose rules give each sample the span that was current on its thread then. Runs
 * on the JFR consumer thread. Samples that arrive before the clock is calibrated wait ({@link
 * PendingSamples}); what was joined, dropped or left out is counted in {@link JoinCounts}.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class SampleJoiner {
  static final int MAX_PROMPT_RECALIBRATIONS = 3;
  /** {@link #onEvent}'s thread id of an event whose thread the chunk does not name. */
  public static final long NO_THREAD = Long.MIN_VALUE;

  private final JfrClock clock;
  private final TimelineJoin join;
  /** Where the reader interns the stacks and methods the events refer to. */
  private final ConstantStore store = new ConstantStore();
  /** The store as the profile sees stacks: one object for the joiner's life (see {@link StoreStacks}). */
  private final StoreStacks stacks = new StoreStacks(store);
  private final PendingSamples pending;
  /** Held by the one thread that feeds this joiner (see {@link #feeding()}). */
  private final ReentrantLock feeding = new ReentrantLock();
  /** Calibrations committed in a row because the newest point was off the line. */
  private int promptRecalibrations;
  /** The newest calibration event's nanoTime that the stream delivered. */
  private long lastCalibration = Long.MIN_VALUE;
  private final DroppedEvents dropped = new DroppedEvents();
  private final JoinCounts counts;
  private final LongPredicate ownThread;
  /** Which reader feeds this joiner: kept here, the one object every stream of the JVM shares. */
  private final JfrReaders readers;
  public SampleJoiner(
      JfrClock clock, Timelines timelines, ContextRegistry registry, ProfileCollector collector, SampleFilters filters) {
    this(clock, timelines, registry, collector, filters, JfrReaders.auto());
  }

  /** @param readers which reader reads the recording (for the life of this joiner, the JVM's) */
  public SampleJoiner(JfrClock clock, Timelines timelines, ContextRegistry registry, ProfileCollector collector,
      SampleFilters filters, JfrReaders readers) {
    this(clock, timelines, registry, collector, filters, OwnThreads::contains, readers);
  }

  /** @param ownThread whether a Java thread id is one of Spanflight's own threads (tests choose) */
  SampleJoiner(JfrClock clock, Timelines timelines, ContextRegistry registry, ProfileCollector collector,
      SampleFilters filters, LongPredicate ownThread) {
    this(clock, timelines, registry, collector, filters, ownThread, JfrReaders.auto());
  }

  private SampleJoiner(JfrClock clock, Timelines timelines, ContextRegistry registry, ProfileCollector collector,
      SampleFilters filters, LongPredicate ownThread, JfrReaders readers) {
    this.readers = readers;
    this.ownThread = ownThread;
    this.clock = clock;
    this.join = new TimelineJoin(clock, timelines, registry, filters,
        (type, leaf, stack, link, epochNanos, value) -> collector.add(type, stacks, leaf, stack, link, epochNanos, value),
        stacks);
    this.pending = new PendingSamples(clock, store, dropped, this::join);
    this.counts = new JoinCounts(join, dropped, store, readers);
  }

  /** The context filters for the samples joined from now on; between runs (see {@link TimelineJoin#filters}). */
  public void filters(SampleFilters next) {
    join.filters(next);
  }

  /**
   * The lock a stream's thread holds while it feeds this joiner: the joiner and its store are not
   * thread-safe, and a stream started after another was closed must not begin while the old one's
   * thread still reads (it ends at its next pause, or later if JFR keeps it busy).
   */
  public ReentrantLock feeding() {
    return feeding;
  }

  /** Which reader reads the recording (ours, or the JDK's stream), and its fallbacks. */
  public JfrReaders readers() {
    return readers;
  }

  /** The store the reader of the events given to {@link #onEvent} interns their stacks in. */
  public ConstantStore store() {
    return store;
  }

  /** The {@link #store()}'s stacks and methods as the profile reads them (also for method timing). */
  public InternedStacks stacks() {
    return stacks;
  }

  /** A calibration event: its start in ticks and the nanoTime read right after. */
  public void onCalibration(long startTicks, long nanoTime) {
    clock.calibrate(startTicks, nanoTime);
    counts.calibrated(clock);
    // A point off the line is a preempted calibration or a clock that left the line: until the
    // next point says which, samples turn unknown; ask for that point now (a few in a row at most).
    if (clock.lastCalibrationOffLine() && promptRecalibrations < MAX_PROMPT_RECALIBRATIONS) {
      promptRecalibrations++;
      CalibrationEvent.commitNow();
    } else if (!clock.lastCalibrationOffLine()) {
      promptRecalibrations = 0;
    }
    synchronized (this) {
      lastCalibration = Math.max(lastCalibration, nanoTime);
      join.advanceWatermark(lastCalibration);
      notifyAll();
    }
    pending.joinReady();
  }

  /**
   * An event of {@code source}; joined now, or once it can be (see {@link PendingSamples}).
   *
   * @param javaThreadId the thread's Java id, -1 for a thread without one (joined to no context),
   *     {@link #NO_THREAD} when the event names no thread (dropped)
   * @param stack the event's stack in the {@link #store()}, or -1 (dropped)
   * @param leaf a method of the store to show above the stack, or -1
   */
  public void onEvent(JoinSource source, long javaThreadId, boolean virtual, int stack, int leaf, long startTicks,
      long startEpochNanos, long durationNanos, long value) {
    onEvent(source, javaThreadId, virtual, stack, leaf, startTicks, startEpochNanos, durationNanos, value, null);
  }

  /**
   * {@link #onEvent(JoinSource, long, boolean, int, int, long, long, long, long)} with what the event
   * waited on, for an inferred span: {@code address:port} of a socket event, the path of a file
   * event, or null.
   */
  public void onEvent(JoinSource source, long javaThreadId, boolean virtual, int stack, int leaf, long startTicks,
      long startEpochNanos, long durationNanos, long value, String detail) {
    counts.delivered(source);
    if (!pending.isEmpty()) {
      pending.joinReady();
    }
    if (javaThreadId == NO_THREAD || stack < 0) {
      dropped.add(javaThreadId == NO_THREAD ? DroppedEvents.Reason.NO_THREAD : DroppedEvents.Reason.NO_STACK);
      return;
    }
    if (source.belowOurThreshold(durationNanos)) {
      counts.belowOurThreshold(); // there because another recording asked for a lower threshold
      return;
    }
    if (source.waits() && ownThread.test(javaThreadId)) {
      counts.ownThreadWait(); // Spanflight waiting for work, not the application
      return;
    }
    if (!pending.ready(source)) {
      pending.add(new PendingSample(source, javaThreadId, virtual, stack, leaf, store.generation(), startTicks,
          startEpochNanos, value, detail));
      return;
    }
    join(source, javaThreadId, virtual, stack, leaf, startTicks, startEpochNanos, value, detail);
  }

  /**
   * The stream ended: the events still waiting are joined or counted as dropped ({@link
   * PendingSamples#joinAtEnd}); so every event read is joined or counted ({@code Spanflight stopped:
   * ... dropped=}).
   */
  public void endOfStream() {
    pending.joinAtEnd();
  }

  /** An event whose value field is missing or empty: nothing to weigh it by (see {@link JoinCounts#dropped()}). */
  public void dropWithoutWeight() {
    dropped.add(DroppedEvents.Reason.NO_WEIGHT);
  }

  private void join(PendingSample p) {
    join(p.source, p.javaThreadId, p.virtual, p.stack, p.leaf, p.startTicks, p.startEpochNanos, p.value, p.detail);
  }

  private void join(JoinSource source, long javaThreadId, boolean virtual, int stack, int leaf, long startTicks,
      long startEpochNanos, long value, String detail) {
    join.join(source.sourceName(), source.costKind(), source.typeAt(startTicks), javaThreadId, virtual && javaThreadId >= 0,
        startTicks, stack, leaf, startEpochNanos, value, detail);
  }

  /** For tests: {@link TimelineJoin#contextAt} of a platform thread at JFR tick {@code ticks}. */
  int contextAt(long javaThreadId, long ticks) {
    return join.contextAt(javaThreadId, false, ticks);
  }

  /** For tests (and {@code UnknownJoins} in other packages): {@link TimelineJoin#linkOf}. */
  ContextRecord linkOf(int context) {
    return join.linkOf(context);
  }

  /** From now on, joined events of sampled spans also go to {@code table}. */
  public void recordCosts(SpanCostTable table) {
    join.recordCosts(table);
  }

  /** See {@link TimelineJoin#watermarkNanos()}. */
  public long watermarkNanos() {
    return join.watermarkNanos();
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

  /**
   * JFR reports that it lost {@code count} samples of {@code source} ({@code
   * jdk.CPUTimeSamplesLost}: the CPU-time sampler's queue of a thread was full).
   */
  public void onSamplesLost(JoinSource source, long count) {
    counts.lost(source, count);
  }

  /** What the join counted since startup. */
  public JoinCounts counts() {
    return counts;
  }
}
