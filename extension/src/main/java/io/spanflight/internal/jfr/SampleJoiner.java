package io.spanflight.internal.jfr;

import io.spanflight.internal.correlate.TimelineJoin;
import io.spanflight.internal.correlate.Timelines;
import io.spanflight.internal.costs.SpanCostTable;
import io.spanflight.internal.filter.SampleFilters;
import io.spanflight.internal.jfr.chunk.ConstantStore;
import io.spanflight.internal.profile.ProfileCollector;
import io.spanflight.internal.registry.ContextRecord;
import io.spanflight.internal.registry.ContextRegistry;
import io.spanflight.internal.threads.OwnThreads;
import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongPredicate;

/**
 * The JFR side of the join: takes what the join needs of each event as the reader gives it (the
 * thread to join on, the sampled thread of a sample event or the event thread of a duration event;
 * its stack and leaf as indexes of the reader's {@link ConstantStore}, start and value), feeds the
 * calibration events to the {@link JfrClock}, and hands the values to the JFR-free {@link
 * TimelineJoin}, whose rules give each sample the span that was current on its thread then. Runs
 * on the JFR consumer thread. Samples that arrive before the clock is calibrated wait in a bounded
 * queue.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class SampleJoiner {
  static final int MAX_PENDING = 50_000;
  static final long SETTINGS_WAIT_MILLIS = 3000;
  static final int MAX_PROMPT_RECALIBRATIONS = 3;
  /** {@link #onEvent}'s thread id of an event whose thread the chunk does not name. */
  static final long NO_THREAD = Long.MIN_VALUE;

  private final JfrClock clock;
  private final TimelineJoin join;
  /** Where the reader interns the stacks and methods the events refer to. */
  private final ConstantStore store = new ConstantStore();
  private final ArrayDeque<PendingSample> pending = new ArrayDeque<>();
  /** Held by the one thread that feeds this joiner (see {@link #feeding()}). */
  private final ReentrantLock feeding = new ReentrantLock();
  private long pendingSince;
  /** Calibrations committed in a row because the newest point was off the line. */
  private int promptRecalibrations;
  /** The newest calibration event's nanoTime that the stream delivered. */
  private long lastCalibration = Long.MIN_VALUE;
  private final DroppedEvents dropped = new DroppedEvents();
  private final AtomicLong belowThreshold = new AtomicLong();
  private final AtomicLong ownThreadWaits = new AtomicLong();
  private final LongPredicate ownThread;
  /** Which reader feeds this joiner: kept here, the one object every stream of the JVM shares. */
  private final JfrReaders readers;
  private final AtomicLong calibrations = new AtomicLong();
  /** Events the reader delivered per watched source ({@link BlindSources#WATCHED}), since startup. */
  private final AtomicLongArray watchedEvents = new AtomicLongArray(BlindSources.WATCHED.size());
  /** Samples JFR says it lost, per watched source (only the CPU-time sampler reports them). */
  private final AtomicLongArray lostSamples = new AtomicLongArray(BlindSources.WATCHED.size());
  /** The clock's {@link JfrClock#trustedAheadNanos()} after the newest calibration. */
  private volatile long trustedAheadNanos;
  /** The clock's {@link JfrClock#maxResidualNanos()} then (the clock is the consumer thread's). */
  private volatile long largestResidualNanos;

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
        (type, leaf, stack, link, epochNanos, value) -> collector.add(type, store, leaf, stack, link, epochNanos, value));
  }

  /**
   * The lock a stream's thread holds while it feeds this joiner: the joiner and its store are not
   * thread-safe, and a stream started after another was closed must not begin while the old one's
   * thread still reads (it ends at its next pause, or later if JFR keeps it busy).
   */
  ReentrantLock feeding() {
    return feeding;
  }

  /** Which reader reads the recording (ours, or the JDK's stream), and its fallbacks. */
  public JfrReaders readers() {
    return readers;
  }

  /** The store the reader of the events given to {@link #onEvent} interns their stacks in. */
  ConstantStore store() {
    return store;
  }

  /** A calibration event: its start in ticks and the nanoTime read right after. */
  void onCalibration(long startTicks, long nanoTime) {
    clock.calibrate(startTicks, nanoTime);
    trustedAheadNanos = clock.trustedAheadNanos();
    largestResidualNanos = clock.maxResidualNanos();
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
      lastCalibration = Math.max(lastCalibration, nanoTime);
      join.advanceWatermark(lastCalibration);
      notifyAll();
    }
    joinPending();
  }

  /**
   * An event of {@code source}; joined now, or once the clock is calibrated and, for a periodic
   * source, JFR has reported the period in force (its {@code jdk.ActiveSetting} events come at the
   * start of the stream's first chunk, possibly after its first samples). If that report does not
   * come within {@value #SETTINGS_WAIT_MILLIS} ms, the configured period is used.
   *
   * @param javaThreadId the thread's Java id, -1 for a thread without one (joined to no context),
   *     {@link #NO_THREAD} when the event names no thread (dropped)
   * @param stack the event's stack in the {@link #store()}, or -1 (dropped)
   * @param leaf a method of the store to show above the stack, or -1
   */
  void onEvent(JfrSource source, long javaThreadId, boolean virtual, int stack, int leaf, long startTicks,
      long startEpochNanos, long durationNanos, long value) {
    if (source.watched >= 0) {
      watchedEvents.incrementAndGet(source.watched);
    }
    if (!pending.isEmpty()) {
      joinPending();
    }
    if (javaThreadId == NO_THREAD || stack < 0) {
      dropped.add(javaThreadId == NO_THREAD ? DroppedEvents.Reason.NO_THREAD : DroppedEvents.Reason.NO_STACK);
      return;
    }
    if (source.belowOurThreshold(durationNanos)) {
      belowThreshold.incrementAndGet(); // there because another recording asked for a lower threshold
      return;
    }
    if (source.waits && ownThread.test(javaThreadId)) {
      ownThreadWaits.incrementAndGet(); // Spanflight waiting for work, not the application
      return;
    }
    if (!ready(source)) {
      if (pending.isEmpty()) {
        pendingSince = System.nanoTime();
      }
      if (pending.size() < MAX_PENDING) {
        pending.add(new PendingSample(source, javaThreadId, virtual, stack, leaf, store.generation(), startTicks,
            startEpochNanos, value));
      } else {
        dropped.add(DroppedEvents.Reason.TOO_MANY_WAITING);
      }
      return;
    }
    join(source, javaThreadId, virtual, stack, leaf, startTicks, startEpochNanos, value);
  }

  /**
   * The stream ended: the events still waiting are joined if the clock is calibrated (a periodic
   * source's with the configured period, as after {@value #SETTINGS_WAIT_MILLIS} ms), else counted
   * as dropped; so every event read is joined or counted ({@code Spanflight stopped: ... dropped=}).
   */
  void endOfStream() {
    PendingSample p;
    while ((p = pending.poll()) != null) {
      if (p.storeGeneration != store.generation()) {
        dropped.add(DroppedEvents.Reason.STORE_CLEARED);
      } else if (clock.calibrated()) {
        join(p.source, p.javaThreadId, p.virtual, p.stack, p.leaf, p.startTicks, p.startEpochNanos, p.value);
      } else {
        dropped.add(DroppedEvents.Reason.WAITING_AT_END);
      }
    }
  }

  /** An event whose value field is missing or empty: nothing to weigh it by (see {@link #dropped()}). */
  void dropWithoutWeight() {
    dropped.add(DroppedEvents.Reason.NO_WEIGHT);
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
      PendingSample p = pending.poll();
      if (p.storeGeneration != store.generation()) {
        dropped.add(DroppedEvents.Reason.STORE_CLEARED); // its stack's index means nothing now
      } else if (ready(p.source)) {
        join(p.source, p.javaThreadId, p.virtual, p.stack, p.leaf, p.startTicks, p.startEpochNanos, p.value);
      } else {
        pending.add(p);
      }
    }
  }

  private void join(JfrSource source, long javaThreadId, boolean virtual, int stack, int leaf, long startTicks,
      long startEpochNanos, long value) {
    join.join(source.sourceName, source.costKind, source.typeAt(startTicks), javaThreadId, virtual && javaThreadId >= 0,
        startTicks, stack, leaf, startEpochNanos, value);
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

  /** Events the reader delivered of the watched source {@code index} ({@link BlindSources#WATCHED}), since startup. */
  long watchedEvents(int index) {
    return watchedEvents.get(index);
  }

  /**
   * JFR reports that it lost {@code count} samples of {@code source} ({@code
   * jdk.CPUTimeSamplesLost}: the CPU-time sampler's queue of a thread was full).
   */
  void onSamplesLost(JfrSource source, long count) {
    if (source.watched >= 0 && count > 0) {
      lostSamples.addAndGet(source.watched, count);
    }
  }

  /** Samples JFR lost of the watched source {@code index} ({@link BlindSources#WATCHED}), since startup. */
  long lostSamples(int index) {
    return lostSamples.get(index);
  }

  /** Events joined since startup (with or without a span). */
  public long samples() {
    return join.samples();
  }

  /** Events joined to a span. */
  public long linked() {
    return join.linked();
  }

  /** See {@link TimelineJoin#unknownTimeline()}. */
  public long unknownTimeline() {
    return join.unknownTimeline();
  }

  /** See {@link TimelineJoin#unknownClock()}. */
  public long unknownClock() {
    return join.unknownClock();
  }

  /** See {@link TimelineJoin#unknownStaleId()}. */
  public long unknownStaleId() {
    return join.unknownStaleId();
  }

  /**
   * Events dropped before the join: no thread, no stack (or a frame of it that the chunk did not
   * resolve), no weight, or too many before calibration.
   */
  public long dropped() {
    return dropped.total();
  }

  /** Events dropped for {@code reason} (see {@link #dropped()}). */
  long dropped(DroppedEvents.Reason reason) {
    return dropped.count(reason);
  }

  /** Events dropped by a context filter. */
  public long filtered() {
    return join.filtered();
  }

  /**
   * Events of a threshold source shorter than our threshold, which arrived only because another
   * recording asked JFR for a lower one; not part of our profiles.
   */
  public long belowThreshold() {
    return belowThreshold.get();
  }

  /**
   * Wait events (lock, park, socket, file) of Spanflight's own threads, left out of the profiles:
   * its idle background threads waiting for work, not the application.
   */
  public long ownThreadWaits() {
    return ownThreadWaits.get();
  }

  /**
   * How long after the newest delivered calibration samples still map onto the timelines' clock
   * within the join tolerance (0 until the map is ready): the next calibration is due before then.
   */
  public long trustedAheadNanos() {
    return trustedAheadNanos;
  }

  /** Calibration events delivered so far. */
  public long calibrations() {
    return calibrations.get();
  }

  /** A one-line summary of the counters since startup. */
  public String summary() {
    return String.format(
        "samples=%d linked=%d unknown-timeline=%d (clock %d, stale id %d) filtered=%d dropped=%s"
            + " below-our-threshold=%d own-thread-waits=%d calibrations=%d (largest residual %d µs, map"
            + " trusted %s past the newest) stack-store-clears=%d %s",
        join.samples(), join.linked(), join.unknownTimeline(), join.unknownClock(), join.unknownStaleId(),
        join.filtered(), dropped, belowThreshold.get(), ownThreadWaits.get(), calibrations.get(),
        largestResidualNanos / 1000,
        trustedAheadNanos == Long.MAX_VALUE ? "without limit" : trustedAheadNanos / 1_000_000 + " ms",
        store.generation(), readers.describe());
  }
}
