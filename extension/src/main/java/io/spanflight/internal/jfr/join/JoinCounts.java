package io.spanflight.internal.jfr.join;

import io.spanflight.internal.correlate.TimelineJoin;
import io.spanflight.internal.jfr.chunk.ConstantStore;
import io.spanflight.internal.jfr.clock.JfrClock;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * What the join counted since startup, for the self metrics, the blind-source watch and the line
 * logged at a stop ({@link #summary()}): the {@link TimelineJoin}'s outcomes, the events dropped
 * before it and why, the events left out on purpose, the calibrations and the clock's state after
 * the newest. The JFR consumer thread counts; any thread reads.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class JoinCounts {
  private final TimelineJoin join;
  private final DroppedEvents dropped;
  private final ConstantStore store;
  private final JfrReaders readers;
  private final AtomicLong belowThreshold = new AtomicLong();
  private final AtomicLong ownThreadWaits = new AtomicLong();
  private final AtomicLong calibrations = new AtomicLong();
  /** Events the reader delivered per watched source ({@link JoinSource#WATCHED}), since startup. */
  private final AtomicLongArray watchedEvents = new AtomicLongArray(JoinSource.WATCHED.size());
  /** Samples JFR says it lost, per watched source (only the CPU-time sampler reports them). */
  private final AtomicLongArray lostSamples = new AtomicLongArray(JoinSource.WATCHED.size());
  /** The clock's {@link JfrClock#trustedAheadNanos()} after the newest calibration. */
  private volatile long trustedAheadNanos;
  /** The clock's {@link JfrClock#maxResidualNanos()} then (the clock is the consumer thread's). */
  private volatile long largestResidualNanos;

  JoinCounts(TimelineJoin join, DroppedEvents dropped, ConstantStore store, JfrReaders readers) {
    this.join = join;
    this.dropped = dropped;
    this.store = store;
    this.readers = readers;
  }

  void calibrated(JfrClock clock) {
    trustedAheadNanos = clock.trustedAheadNanos();
    largestResidualNanos = clock.maxResidualNanos();
    calibrations.incrementAndGet();
  }

  void delivered(JoinSource source) {
    int watched = source.watched();
    if (watched >= 0) {
      watchedEvents.incrementAndGet(watched);
    }
  }

  void lost(JoinSource source, long count) {
    int watched = source.watched();
    if (watched >= 0 && count > 0) {
      lostSamples.addAndGet(watched, count);
    }
  }

  void belowOurThreshold() {
    belowThreshold.incrementAndGet();
  }

  void ownThreadWait() {
    ownThreadWaits.incrementAndGet();
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

  /** Events dropped by a context filter. */
  public long filtered() {
    return join.filtered();
  }

  /**
   * Events dropped before the join: no thread, no stack (or a frame of it that the chunk did not
   * resolve), no weight, or too many before calibration.
   */
  public long dropped() {
    return dropped.total();
  }

  /** Events dropped for {@code reason} (see {@link #dropped()}). */
  public long dropped(DroppedEvents.Reason reason) {
    return dropped.count(reason);
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

  /** Calibration events delivered so far. */
  public long calibrations() {
    return calibrations.get();
  }

  /**
   * How long after the newest delivered calibration samples still map onto the timelines' clock
   * within the join tolerance (0 until the map is ready): the next calibration is due before then.
   */
  public long trustedAheadNanos() {
    return trustedAheadNanos;
  }

  /** Events the reader delivered of the watched source {@code index} ({@link JoinSource#WATCHED}), since startup. */
  public long watchedEvents(int index) {
    return watchedEvents.get(index);
  }

  /** Samples JFR lost of the watched source {@code index} ({@link JoinSource#WATCHED}), since startup. */
  public long lostSamples(int index) {
    return lostSamples.get(index);
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
