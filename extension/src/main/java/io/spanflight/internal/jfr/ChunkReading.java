package io.spanflight.internal.jfr;

import io.spanflight.internal.jfr.chunk.ChunkFormatException;
import io.spanflight.internal.jfr.chunk.ChunkReader;
import io.spanflight.internal.jfr.chunk.RepositoryFollower;
import io.spanflight.internal.jfr.clock.CalibrationEvent;
import io.spanflight.internal.jfr.join.SampleJoiner;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.logging.Logger;
import jdk.jfr.Recording;

/**
 * Reads our recording with our own {@link ChunkReader}, following the chunk files JFR writes into
 * its repository ({@link RepositoryFollower}) as JFR flushes them, until the recording ends. When
 * our reader cannot read a chunk, {@code jfr.join.JfrReaders} decides whether the JDK's stream ({@link
 * JdkStreamReading}) reads on from the newest event ours handed out.
 *
 * <p>Not API: internal to Spanflight.
 */
final class ChunkReading {
  /**
   * How much earlier than the newest event our reader handed out the JDK's stream is started, when
   * it takes over: its start filter converts ticks to wall-clock time a little differently; the
   * events that ours handed out are then skipped by their ticks ({@link JdkStreamEvents}).
   */
  static final Duration TAKE_OVER_MARGIN = Duration.ofSeconds(1);

  private final SampleJoiner joiner;
  private final MethodTimingDeltas methodTiming;
  private final CloseSignal closeSignal;
  private final JdkStreamReading jdkStream;
  private final Logger logger;

  /** @param logger the stream's logger */
  ChunkReading(SampleJoiner joiner, MethodTimingDeltas methodTiming, CloseSignal closeSignal,
      JdkStreamReading jdkStream, Logger logger) {
    this.joiner = joiner;
    this.methodTiming = methodTiming;
    this.closeSignal = closeSignal;
    this.jdkStream = jdkStream;
    this.logger = logger;
  }

  /**
   * Reads our recording every {@value CloseSignal#POLL_MILLIS} ms until it is closed by us (false), by
   * someone else or JFR moves its repository (true); reads what was flushed before either. When
   * our reader cannot read a chunk and {@code jfr.join.JfrReaders.fallBack} says so, the JDK's stream reads
   * on from the newest event ours handed out.
   */
  boolean read(Recording ours, ReaderEvents events, List<JfrSource> enabled, EffectiveSettings inForce)
      throws IOException {
    Path repository = RepositoryFollower.current();
    try (RepositoryFollower follower = new RepositoryFollower(repository, events.reader())) {
      CalibrationEvent.commitNow(); // in the first flush: joining can begin with it
      while (true) {
        boolean open = closeSignal.pause(CloseSignal.POLL_MILLIS);
        if (RecordingEnds.repositoryMoved(repository, logger)) {
          return true;
        }
        try {
          follower.poll(); // after a close too: what was flushed before it
          if (!open) {
            stopAndReadTheRest(ours, follower);
            return false;
          }
          if (RecordingEnds.closedBySomeoneElse(ours, logger)) {
            follower.poll(); // what JFR flushed as it closed the recording
            return true;
          }
        } catch (ChunkFormatException e) {
          if (!open || CloseSignal.jvmShuttingDown() || !joiner.readers().fallBack(e)) {
            throw e;
          }
          ChunkReader reader = events.reader();
          long after = reader.newestEndTicks();
          Instant from = after == Long.MIN_VALUE || !reader.hasClock()
              ? ours.getStartTime()
              : Instant.ofEpochSecond(0, reader.nanos(after)).minus(TAKE_OVER_MARGIN);
          return jdkStream.read(ours, new JdkStreamEvents(enabled, joiner, methodTiming, inForce, after), from);
        }
      }
    }
  }

  /**
   * Closed by us (a switch-off, or Spanflight's shutdown hook): stops our recording, which makes JFR
   * write what it still holds of it (up to a second of events since its last flush, the threads'
   * buffers included) and finish the chunk, then reads to the end of that chunk. Without this, the
   * last second of events was never read when profiling ended. If JFR's own shutdown hook stopped
   * the recording first, it wrote the last chunk as it did so; the chunk we have open stays
   * readable after JFR deletes its files. Bounded: the stop is JFR's own chunk rotation.
   */
  private static void stopAndReadTheRest(Recording ours, RepositoryFollower follower) throws IOException {
    try {
      ours.stop();
    } catch (IllegalStateException e) {
      // already stopped (JFR's shutdown hook, or someone else): its last chunk was written then
    }
    follower.poll();
  }
}
