package io.spanflight.internal.jfr;

import io.spanflight.internal.jfr.chunk.RepositoryFollower;
import io.spanflight.internal.jfr.clock.CalibrationEvent;
import io.spanflight.internal.jfr.join.SampleJoiner;
import io.spanflight.internal.threads.OwnThreads;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Logger;
import jdk.jfr.Recording;
import jdk.jfr.consumer.EventStream;

/**
 * Reads our recording with the JDK's event stream ({@code EventStream.openRepository}), when
 * {@code jfr.join.JfrReaders} says our own reader does not: from the start, or from the newest event ours
 * handed out when it takes over. The stream delivers on a daemon thread of ours ({@value
 * #THREAD_NAME}) while the stream's thread watches for the ends that
 * {@link RecordingEnds} names and for our close. A stream that stops by itself is a failed read.
 *
 * <p>Not API: internal to Spanflight.
 */
final class JdkStreamReading {
  /** The thread on which the JDK's event stream delivers, when it reads (see {@code JfrReaders}). */
  static final String THREAD_NAME = "spanflight-jfr-stream";
  /** At our close, how long the JDK's stream may take to deliver what JFR flushed before it. */
  static final long LAST_FLUSH_WAIT_MILLIS = 1500;

  private final SampleJoiner joiner;
  private final CloseSignal closeSignal;
  private final Logger logger;

  /** @param logger the stream's logger */
  JdkStreamReading(SampleJoiner joiner, CloseSignal closeSignal, Logger logger) {
    this.joiner = joiner;
    this.closeSignal = closeSignal;
    this.logger = logger;
  }

  /**
   * Reads {@code ours} from {@code from} on until it is closed by us (false), by someone else or
   * JFR moves its repository (true); at our close, what JFR flushed before it is read first (up to
   * {@value #LAST_FLUSH_WAIT_MILLIS} ms).
   */
  boolean read(Recording ours, JdkStreamEvents events, Instant from) throws IOException {
    Path repository = RepositoryFollower.current();
    RepositoryFollower.trustedOwner(repository); // the same trust as our reader's, or nothing read
    AtomicReference<Throwable> failure = new AtomicReference<>();
    try (EventStream stream = EventStream.openRepository(repository)) {
      stream.setReuse(true);
      stream.setOrdered(true);
      stream.setStartTime(from);
      events.subscribe(stream);
      Thread delivering = OwnThreads.newDaemon(() -> {
        try {
          stream.start();
        } catch (Throwable t) {
          failure.set(t);
        }
      }, THREAD_NAME);
      delivering.start();
      CalibrationEvent.commitNow();
      try {
        while (true) {
          if (!closeSignal.pause(CloseSignal.POLL_MILLIS)) {
            joiner.awaitCalibrationCommittedNow(LAST_FLUSH_WAIT_MILLIS); // what JFR flushed up to now
            return false;
          }
          if (RecordingEnds.repositoryMoved(repository, logger) || RecordingEnds.closedBySomeoneElse(ours, logger)) {
            return true;
          }
          if (!delivering.isAlive()) {
            throw new IOException("the JDK's event stream stopped reading " + repository, failure.get());
          }
        }
      } finally {
        stream.close();
        delivering.join(CloseSignal.CLOSE_WAIT_MILLIS);
        if (delivering.isAlive()) { // it would still feed the joiner: no other stream may start
          closeSignal.close();
          logger.warning("Spanflight: the JDK's event stream did not end within " + CloseSignal.CLOSE_WAIT_MILLIS
              + " ms; no more profiles");
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
