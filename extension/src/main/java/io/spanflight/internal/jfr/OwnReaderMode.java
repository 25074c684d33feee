package io.spanflight.internal.jfr;

import io.spanflight.internal.jfr.chunk.ChunkReader;
import io.spanflight.internal.jfr.chunk.ConstantStore;
import io.spanflight.internal.jfr.chunk.RepositoryFollower;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import jdk.jfr.Recording;

/**
 * The diagnostic mode {@code reader-only} ({@link StreamUse#OWN_READER}): the same events as our
 * stream's, in a plain recording on disk, read once a second by Spanflight's own chunk reader
 * ({@link ChunkReader}, following the repository) instead of the JDK's {@code RecordingStream}.
 * Each event is asked for the fields our {@link ReaderEvents} asks for; each sample's time, thread
 * and stack are resolved, as a join would need them, then dropped. Measured against {@code
 * stream-only}, it says what the JDK's parser costs and what ours does.
 *
 * <p>Not API: internal to Spanflight.
 */
final class OwnReaderMode {
  private static final long POLL_MILLIS = 1_000;

  private OwnReaderMode() {}

  /** Records and reads until {@code signal} is closed; always false (not opened again). */
  static boolean read(Supplier<List<JfrSource>> sources, Duration maxAge, Duration scopeEventThreshold,
      Consumer<List<JfrSource>> enabled, CloseSignal signal, Logger logger) {
    List<JfrSource> sourceList = sources.get();
    try (Recording recording = PlainRecording.start(sourceList, maxAge, scopeEventThreshold, enabled)) {
      ConstantStore store = new ConstantStore();
      Dropped dropped = new Dropped(store);
      ChunkReader reader = dropped.reader(sourceList);
      try (RepositoryFollower follower = new RepositoryFollower(
          Path.of(System.getProperty("jdk.jfr.repository")), reader)) {
        for (long polls = 1; signal.pause(POLL_MILLIS); polls++) {
          follower.poll();
          if (polls % 60 == 0) { // so that the log shows the mode read what it should
            logger.info("Spanflight's own reader (diagnostic mode reader-only): " + dropped.events + " events, "
                + follower.chunks() + " chunks, " + store.entries() + " store entries, "
                + reader.stacksReadAgain() + " stacks read again");
          }
        }
      }
      return false;
    } catch (Throwable t) {
      logger.log(Level.SEVERE, "Spanflight: the JFR recording or its reader failed", t);
      return false;
    }
  }

  /** Resolves what a join would of each sample, then drops it. */
  private static final class Dropped implements ChunkReader.Events {
    private final ConstantStore store;
    private ReaderEvents.Subscriptions subscriptions;
    private ChunkReader reader;
    private long events;
    private long sum;

    Dropped(ConstantStore store) {
      this.store = store;
    }

    /** A reader asked for exactly what Spanflight's own {@link ReaderEvents} asks for. */
    ChunkReader reader(List<JfrSource> sources) {
      subscriptions = ReaderEvents.Subscriptions.of(sources);
      reader = subscriptions.reader(store, this);
      return reader;
    }

    @Override
    public void event(int subscription, long[] values) {
      events++;
      if (subscriptions.isSample(subscription)) {
        sum += values[ReaderEvents.START] + reader.javaThreadId(values[ReaderEvents.THREAD])
            + reader.stack(values[ReaderEvents.STACK]) + values[ReaderEvents.DURATION];
      }
    }
  }
}
