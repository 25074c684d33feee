package io.spanflight.internal.correlate;

import io.spanflight.internal.bridge.ContextBridge;
import io.spanflight.internal.bridge.TimelineSink;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * Every thread's context history, rebuilt from the bridge's rings, and the join that answers
 * "which context was thread T in at time t". Shared by the timeline collector (drains) and the
 * JFR consumer (joins); all methods are synchronized, and both callers are background threads.
 *
 * <p>A join first drains the rings when the sample is newer than the last drain, so a sample is
 * never joined against a timeline that has not yet seen the switches before it.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class Timelines implements TimelineSink {
  /** The context of a stretch whose ring entries were overwritten before they were drained. */
  public static final int UNKNOWN = -1;

  private final ContextBridge bridge;
  private final Map<Long, ThreadTimeline> byThread = new HashMap<>();
  private long lastDrainStart = Long.MIN_VALUE;
  private long lostEntries;

  public Timelines(ContextBridge bridge) {
    this.bridge = bridge;
  }

  /** Moves every new ring entry into the timelines. */
  public synchronized void drain() {
    lastDrainStart = System.nanoTime();
    bridge.drain(this);
  }

  /** The context id of {@code javaThreadId} at {@code nanoTime}: an id, 0 (none) or UNKNOWN. */
  public synchronized int contextAt(long javaThreadId, long nanoTime) {
    if (nanoTime >= lastDrainStart) {
      drain();
    }
    ThreadTimeline timeline = byThread.get(javaThreadId);
    return timeline == null ? 0 : timeline.contextAt(nanoTime);
  }

  /**
   * Forgets history that no sample will be joined against any more: steps that ended before
   * {@code nanoTime}, threads that ended before it, and threads idle since then with no context
   * (what a missing timeline means too), such as virtual threads that are long gone.
   */
  public synchronized void pruneBefore(long nanoTime) {
    for (Iterator<ThreadTimeline> it = byThread.values().iterator(); it.hasNext(); ) {
      ThreadTimeline timeline = it.next();
      boolean idle = timeline.lastTime() < nanoTime;
      if (idle && (timeline.ended || timeline.lastContext() == 0)) {
        it.remove();
      } else {
        timeline.pruneBefore(nanoTime);
      }
    }
  }

  /** The context ids that some timeline still refers to. For registry pruning. */
  public synchronized BitSet referencedIds() {
    BitSet referenced = new BitSet();
    for (ThreadTimeline timeline : byThread.values()) {
      timeline.forEachContext(
          id -> {
            if (id > 0) {
              referenced.set(id);
            }
          });
    }
    return referenced;
  }

  public synchronized int threadCount() {
    return byThread.size();
  }

  public synchronized int stepCount() {
    int steps = 0;
    for (ThreadTimeline timeline : byThread.values()) {
      steps += timeline.size();
    }
    return steps;
  }

  /** Ring entries overwritten before they could be drained, since startup. */
  public synchronized long lostEntries() {
    return lostEntries;
  }

  @Override
  public void switched(long javaThreadId, long nanoTime, int contextId) {
    timelineOf(javaThreadId).add(nanoTime, contextId);
  }

  @Override
  public void lost(long javaThreadId, long count) {
    lostEntries += count;
    timelineOf(javaThreadId).markUnknownFromLastStep();
  }

  @Override
  public void threadEnded(long javaThreadId) {
    ThreadTimeline timeline = byThread.get(javaThreadId);
    if (timeline != null) {
      timeline.ended = true;
    }
  }

  private ThreadTimeline timelineOf(long javaThreadId) {
    return byThread.computeIfAbsent(javaThreadId, id -> new ThreadTimeline());
  }
}
