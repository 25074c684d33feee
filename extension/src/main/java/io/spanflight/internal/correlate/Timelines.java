package io.spanflight.internal.correlate;

import io.spanflight.internal.bridge.ContextBridge;
import io.spanflight.internal.bridge.ContextIds;
import io.spanflight.internal.bridge.TimelineSink;
import java.util.ArrayDeque;
import java.util.BitSet;

/**
 * Every thread's context history, rebuilt from the bridge's rings, and the join that answers
 * "which context was thread T in at time t". Shared by the timeline collector (drains), the JFR
 * consumer (joins) and housekeeping (prunes); all work happens under this object's lock, and
 * pruning takes it one thread's timeline at a time so drains are never held up for long.
 *
 * <p>A join first drains the rings when the sample is newer than the last drain, so a sample is
 * never joined against a timeline that has not yet seen the switches before it.
 *
 * <p>Over 250 lines because drain, join and prune share one lock and the per-thread map it guards;
 * the history of one thread is {@link ThreadTimeline}.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class Timelines implements TimelineSink {
  /** The context of a stretch whose ring entries were overwritten before they were drained. */
  public static final int UNKNOWN = -1;

  private final ContextBridge bridge;
  private final int maxSteps;
  private int steps;
  private final ThreadTimelineMap byThread = new ThreadTimelineMap();
  /**
   * Timelines of threads that are gone, kept for the next new threads (at most {@value
   * #MAX_SPARE_TIMELINES}): a service that runs each task in a new virtual thread starts hundreds of
   * threads a second, and a timeline made for each lived the seconds it is kept, then died in the
   * old generation.
   */
  private final ArrayDeque<ThreadTimeline> spareTimelines = new ArrayDeque<>();
  static final int MAX_SPARE_TIMELINES = 4096;
  /**
   * The timeline of the thread last looked up for a switch, or null: a ring's entries come in
   * runs of one thread, so most switches skip the map lookup. Cleared when it leaves the map.
   */
  private ThreadTimeline lastTimeline;
  private long lastThreadId;
  private long lastDrainStart = Long.MIN_VALUE;
  private long lostEntries;
  private long overCap;
  /** Rings per OS thread, shared by the virtual threads mounted there (the native bridge). */
  private final boolean sharedRings;
  /** Set by {@link #lost} during a drain. */
  private boolean lostInThisDrain;
  /** The most entries one ring delivered in the current drain (the pace follows the fullest ring). */
  private int fullestRingInThisDrain;
  private final CarrierGaps carrierGaps = new CarrierGaps();
  /** At most this many bytes of step arrays wait to be reused (see {@link StepArrays}). */
  static final long MAX_FREE_ARRAY_BYTES = 2L << 20;
  private final StepArrays arrays = new StepArrays(MAX_FREE_ARRAY_BYTES);

  public Timelines(ContextBridge bridge) {
    this(bridge, Integer.MAX_VALUE);
  }

  /**
   * @param maxSteps the most steps all timelines together hold; switches beyond it are counted as
   *     lost and their stretch becomes unknown, so memory stays bounded under any switch rate
   */
  public Timelines(ContextBridge bridge, int maxSteps) {
    this.bridge = bridge;
    this.maxSteps = maxSteps;
    this.sharedRings = bridge.hasThreadRecord();
  }

  /**
   * Moves every new ring entry into the timelines. Where a ring lost entries and rings are shared
   * by virtual threads, the drain cannot say whose they were: every virtual thread may have
   * switched in the gap, which began after the previous drain started (those entries were not yet
   * published then) and ended before this one returned.
   */
  public synchronized void drain() {
    long previousStart = lastDrainStart;
    lastDrainStart = System.nanoTime();
    lostInThisDrain = false;
    fullestRingInThisDrain = 0;
    bridge.drain(this);
    if (lostInThisDrain && sharedRings) {
      carrierGaps.add(previousStart, System.nanoTime());
    }
  }

  /** Drains, then says how long to wait before the next drain. For the drain thread. */
  public synchronized long drainPaced(DrainPace pace) {
    drain();
    return pace.next(fullestRingInThisDrain, lostInThisDrain);
  }

  /** The context id of {@code javaThreadId} at {@code nanoTime}: an id, 0 (none) or UNKNOWN. */
  public synchronized int contextAt(long javaThreadId, long nanoTime) {
    return contextAt(javaThreadId, nanoTime, false);
  }

  /** As {@link #contextAt(long, long)}, for a virtual thread when {@code virtual}. */
  public synchronized int contextAt(long javaThreadId, long nanoTime, boolean virtual) {
    if (nanoTime >= lastDrainStart) {
      drain();
    }
    ThreadTimeline timeline = byThread.get(javaThreadId);
    int context = timeline == null ? 0 : timeline.contextAt(nanoTime);
    if (virtual && context != UNKNOWN && !carrierGaps.isEmpty()) {
      long stepTime = timeline == null ? Long.MIN_VALUE : timeline.stepTimeAt(nanoTime);
      if (carrierGaps.unknownAt(nanoTime, stepTime)) {
        return UNKNOWN;
      }
    }
    return context;
  }

  /**
   * Forgets history that no sample will be joined against any more: steps that ended before
   * {@code nanoTime}, threads that ended before it, and threads idle since then with no context
   * (what a missing timeline means too), such as virtual threads that are long gone.
   */
  public void pruneBefore(long nanoTime) {
    // One thread's timeline at a time, so a drain waits for one timeline's work at most.
    for (long javaThreadId : threadIds()) {
      synchronized (this) {
        ThreadTimeline timeline = byThread.get(javaThreadId);
        if (timeline == null) {
          continue;
        }
        boolean idle = timeline.lastTime() < nanoTime;
        if (idle && (timeline.ended || timeline.lastContext() == 0)) {
          byThread.remove(javaThreadId);
          if (timeline == lastTimeline) {
            lastTimeline = null;
          }
          retire(timeline);
        } else {
          timeline.pruneBefore(nanoTime);
        }
      }
    }
    synchronized (this) {
      carrierGaps.pruneBefore(nanoTime);
      int[] kept = {0};
      byThread.forEachTimeline(timeline -> kept[0] += timeline.size());
      steps = kept[0];
    }
  }

  /**
   * Prunes behind the JFR stream: history up to {@code marginNanos} before the newest time the
   * stream has delivered ({@code watermarkNanos}, or now if that is later) is kept, so a stream
   * that falls behind still finds the history of every sample it has yet to deliver. Nothing is
   * pruned before the stream has delivered anything ({@code Long.MIN_VALUE}); the step cap bounds
   * memory meanwhile.
   */
  public void pruneBehind(long watermarkNanos, long marginNanos) {
    if (watermarkNanos != Long.MIN_VALUE) {
      pruneBefore(Math.min(watermarkNanos, System.nanoTime()) - marginNanos);
    }
  }

  private synchronized long[] threadIds() {
    return byThread.threadIds();
  }

  /** Hands a removed timeline's blocks back, and keeps the timeline for a new thread. */
  private void retire(ThreadTimeline timeline) {
    timeline.release();
    if (spareTimelines.size() < MAX_SPARE_TIMELINES) {
      spareTimelines.push(timeline);
    }
  }

  /**
   * Forgets every thread's history. Used when profiling is switched off: switches made while off
   * are not recorded, so the old history would be wrong once it is on again; until its next
   * switch, a thread then counts as having no context.
   */
  public synchronized void forgetAll() {
    byThread.forEachTimeline(this::retire);
    byThread.clear();
    lastTimeline = null;
    carrierGaps.clear();
    steps = 0;
  }

  /**
   * The slots ({@link ContextIds#index}) of the context ids that some timeline still refers to,
   * whatever their generation, set in {@code referenced} (cleared first: one set kept from prune
   * to prune, not a new one of a few kilobytes each second). For registry pruning.
   */
  public void referencedIds(BitSet referenced) {
    referenced.clear();
    for (long javaThreadId : threadIds()) {
      synchronized (this) {
        ThreadTimeline timeline = byThread.get(javaThreadId);
        if (timeline != null) {
          timeline.forEachContext(
              id -> {
                if (id > 0) {
                  referenced.set(ContextIds.index(id));
                }
              });
        }
      }
    }
  }

  public synchronized int threadCount() {
    return byThread.size();
  }

  public synchronized int stepCount() {
    return steps;
  }

  /**
   * Bytes held by the timelines' arrays (their capacity, not only the steps in use), and by the
   * arrays waiting to be reused.
   */
  public synchronized long memoryBytes() {
    long[] bytes = {arrays.freeBytes()};
    byThread.forEachTimeline(timeline -> bytes[0] += timeline.memoryBytes());
    return bytes[0];
  }

  /** Pairs of step arrays worth reusing allocated since startup (see {@link StepArrays#created()}). */
  synchronized long stepArraysCreated() {
    return arrays.created();
  }

  /** Ring entries overwritten before they could be drained, since startup. */
  public synchronized long lostEntries() {
    return lostEntries;
  }

  /** Of {@link #lostEntries()}: switches drained but dropped because the timelines held {@code maxSteps}. */
  public synchronized long overCap() {
    return overCap;
  }

  @Override
  public void switched(long javaThreadId, long nanoTime, int contextId) {
    ThreadTimeline timeline = timelineOf(javaThreadId, nanoTime);
    if (steps < maxSteps) {
      timeline.add(nanoTime, contextId);
      steps++;
    } else {
      lostEntries++;
      overCap++;
      if (timeline.lastContext() != UNKNOWN) {
        timeline.markUnknownFromLastStep(); // one step beyond the cap, once per thread
        steps++;
      }
    }
  }

  @Override
  public void lost(long javaThreadId, long count) {
    lostEntries += count;
    lostInThisDrain = true;
    timelineOf(javaThreadId, lastDrainStart).markUnknownFromLastStep();
    steps++;
  }

  @Override
  public void ringDrained(int entries) {
    fullestRingInThisDrain = Math.max(fullestRingInThisDrain, entries);
  }

  @Override
  public void threadEnded(long javaThreadId) {
    ThreadTimeline timeline = byThread.get(javaThreadId);
    if (timeline != null) {
      timeline.ended = true;
    }
  }

  /** The thread's timeline; a new one keeps its step times as offsets from {@code nanoTime}. */
  private ThreadTimeline timelineOf(long javaThreadId, long nanoTime) {
    if (lastTimeline != null && lastThreadId == javaThreadId) {
      return lastTimeline;
    }
    ThreadTimeline timeline = byThread.get(javaThreadId);
    if (timeline == null) {
      timeline = spareTimelines.poll();
      if (timeline == null) {
        timeline = new ThreadTimeline(arrays, nanoTime);
      } else {
        timeline.restart(nanoTime);
      }
      byThread.put(javaThreadId, timeline);
    }
    lastThreadId = javaThreadId;
    lastTimeline = timeline;
    return timeline;
  }
}
