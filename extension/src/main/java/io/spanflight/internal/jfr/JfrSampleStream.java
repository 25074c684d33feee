package io.spanflight.internal.jfr;

import io.spanflight.internal.config.SourceSettings;
import io.spanflight.internal.jfr.chunk.ChunkFormatException;
import io.spanflight.internal.jfr.chunk.ChunkReader;
import io.spanflight.internal.jfr.chunk.RepositoryFollower;
import io.spanflight.internal.jfr.chunk.UntrustedRepositoryException;
import io.spanflight.internal.profile.ProfileCollector;
import io.spanflight.internal.threads.OwnThreads;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import java.util.logging.Level;
import java.util.logging.Logger;
import jdk.jfr.Recording;
import jdk.jfr.RecordingState;
import jdk.jfr.consumer.EventStream;

/**
 * Our JFR recording and its reader. The recording is a plain disk {@link Recording} with the event
 * types of the enabled sources at their configured period, threshold, throttle or filter (limited
 * by the {@link JfcCap}), the calibration event and {@code jdk.ActiveSetting} (the settings JFR
 * actually applies, see {@link EffectiveSettings}); which events, and how, is {@link OurEvents}.
 * The daemon thread {@value #THREAD_NAME} owns it: starts it, follows the chunk files JFR writes
 * into its repository with our own {@link io.spanflight.internal.jfr.chunk.ChunkReader} (every
 * {@value #POLL_MILLIS} ms; JFR flushes once a second), and hands each event, in time order, to
 * {@link ReaderEvents}. JFR starts no thread of its own for us.
 *
 * <p>Why not the JDK's {@code RecordingStream}: its parser makes an object graph of every event and
 * of each chunk's constants, which young collections copy until the chunk ends; ours reads only the
 * fields we use and keeps stacks interned in int tables (see {@code benchmarks/overhead}).
 *
 * <p>Other recordings (the user's, started with {@code -XX:StartFlightRecording}, {@code jcmd},
 * JMX or in-process) start, stop, dump and close independently of ours; they only change the
 * settings in force. If our own recording is closed by someone else (JMC lists it like any
 * other), a new one is started, after a pause of {@value #REOPEN_PAUSE_MILLIS} ms; the same when
 * JFR moves its repository, and after a read that failed (a chunk our reader refuses, a file gone;
 * up to {@value #MAX_READ_FAILURES} times within {@value #READ_FAILURE_MEMORY_MINUTES} minutes).
 * A repository that is not this user's is not read at all: see {@link RepositoryFollower}.
 *
 * <p>When our reader cannot read a chunk (a {@link ChunkFormatException}), {@link JfrReaders}
 * decides: by default the JDK's event stream reads on, from the newest event ours handed out, for
 * the rest of the JVM's life ({@link JdkStreamEvents}, delivering on {@value
 * #JDK_STREAM_THREAD_NAME}); {@code otel.spanflight.jfr.reader} can force either reader.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class JfrSampleStream implements AutoCloseable {
  public static final String THREAD_NAME = "spanflight-jfr";
  private static final Logger logger = Logger.getLogger(JfrSampleStream.class.getName());

  static final long REOPEN_PAUSE_MILLIS = 1000;
  static final long CLOSE_WAIT_MILLIS = 5000;
  static final long POLL_MILLIS = 250;
  /** The system property in which JFR names its repository, once it has one. */
  static final String REPOSITORY_PROPERTY = "jdk.jfr.repository";
  /** Failed reads of our recording, within {@link #READ_FAILURE_MEMORY_MINUTES}, that end profiling. */
  static final int MAX_READ_FAILURES = 3;
  static final long READ_FAILURE_MEMORY_MINUTES = 10;
  /** The thread on which the JDK's event stream delivers, when it reads (see {@link JfrReaders}). */
  public static final String JDK_STREAM_THREAD_NAME = "spanflight-jfr-stream";
  /** At our close, how long the JDK's stream may take to deliver what JFR flushed before it. */
  static final long LAST_FLUSH_WAIT_MILLIS = 1500;
  /**
   * How much earlier than the newest event our reader handed out the JDK's stream is started, when
   * it takes over: its start filter converts ticks to wall-clock time a little differently; the
   * events that ours handed out are then skipped by their ticks ({@link JdkStreamEvents}).
   */
  static final Duration TAKE_OVER_MARGIN = Duration.ofSeconds(1);

  private final List<SourceSettings> settings;
  private final SampleJoiner joiner;
  private final MethodTimingDeltas methodTiming;
  private final JfcCap cap;
  /** Our running recording, or null. */
  private volatile Recording recording;
  /** The diagnostic mode {@code stream-only}'s stream, used only in that mode. */
  private final DeliverOnlyMode deliverOnly = new DeliverOnlyMode();
  private volatile List<JfrSource> sources = List.of();
  private final CloseSignal closeSignal = new CloseSignal();
  private volatile Thread thread;
  private final Duration maxAge;
  private final RecentData recentData = new RecentData(logger);

  private Duration scopeEventThreshold;
  private StreamUse use = StreamUse.JOIN;
  /** Failed reads in a row, each within {@link #READ_FAILURE_MEMORY_MINUTES} of the one before (this thread). */
  private int readFailures;
  private long lastReadFailure;

  /** @param maxAge how much JFR data the recording keeps (and {@link #dumpRecent} returns) */
  public JfrSampleStream(
      List<SourceSettings> settings, SampleJoiner joiner, ProfileCollector collector, Duration maxAge) {
    this(settings, joiner, collector, maxAge, false);
  }

  /**
   * @param capAtDefaultJfc true limits every setting to the JDK's default.jfc ({@code
   *     otel.spanflight.jfr.cap=default})
   */
  public JfrSampleStream(
      List<SourceSettings> settings,
      SampleJoiner joiner,
      ProfileCollector collector,
      Duration maxAge,
      boolean capAtDefaultJfc) {
    this.cap = capAtDefaultJfc ? JfcCap.ofDefaultJfc() : JfcCap.NONE;
    this.maxAge = maxAge;
    this.settings = settings;
    this.joiner = joiner;
    this.methodTiming = new MethodTimingDeltas(collector);
  }

  /** Also records {@code capture.SpanScopeEvent}s of scopes longer than {@code threshold}; call before start. */
  public void recordScopeEvents(Duration threshold) {
    this.scopeEventThreshold = threshold;
  }

  /** {@link StreamUse#JOIN} unless a diagnostic mode runs only part of Spanflight; call before start. */
  public void use(StreamUse use) {
    this.use = use;
  }

  public void start() {
    Thread t = OwnThreads.newDaemon(this::run, THREAD_NAME);
    thread = t;
    t.start();
  }

  private void run() {
    ReentrantLock feeding = joiner.feeding();
    try {
      while (!feeding.tryLock(POLL_MILLIS, TimeUnit.MILLISECONDS)) { // an earlier stream's thread still reads
        if (closeSignal.closed()) {
          return;
        }
      }
    } catch (InterruptedException e) {
      return;
    }
    try {
      boolean first = true;
      while (!closeSignal.closed()) {
        if (!first && (CloseSignal.jvmShuttingDown() || !closeSignal.pause(REOPEN_PAUSE_MILLIS))) {
          return;
        }
        if (!runOnce()) {
          return;
        }
        first = false;
      }
    } finally {
      joiner.endOfStream();
      feeding.unlock();
    }
  }

  /** The sources this JVM has events for, at our settings (limited by the cap). */
  private List<JfrSource> enabledSources() {
    return JfrSources.of(settings, JfrSources.availableEventTypes(), cap);
  }

  /** Runs one recording until it ends; true when a new one should be started. */
  private boolean runOnce() {
    switch (use) {
      case RECORD_ONLY:
        return RecordOnlyMode.record(
            this::enabledSources, maxAge, scopeEventThreshold, enabled -> sources = enabled, closeSignal, logger);
      case OWN_READER:
        return OwnReaderMode.read(
            this::enabledSources, maxAge, scopeEventThreshold, enabled -> sources = enabled, closeSignal, logger);
      case DELIVER_ONLY:
        return deliverOnly.deliver(
            this::enabledSources, maxAge, scopeEventThreshold, enabled -> sources = enabled, closeSignal, logger);
      default:
        return recordAndRead();
    }
  }

  /**
   * Starts our recording and reads it as JFR flushes it, until it is closed: by us (false), or by
   * someone else, when JFR moves its repository, or after a failed read (true: start a new one).
   * The reader is ours, or the JDK's stream when {@link JfrReaders} says so.
   */
  private boolean recordAndRead() {
    Recording ours = null;
    try {
      List<JfrSource> enabled = enabledSources();
      EffectiveSettings inForce = new EffectiveSettings(enabled);
      ReaderEvents events = new ReaderEvents(enabled, joiner, methodTiming, inForce);
      ours = PlainRecording.start(enabled, maxAge, scopeEventThreshold, e -> sources = e);
      recording = ours;
      if (joiner.readers().jdk()) {
        return readWithJdk(ours, new JdkStreamEvents(enabled, joiner, methodTiming, inForce, Long.MIN_VALUE),
            ours.getStartTime());
      }
      return follow(ours, events, enabled, inForce);
    } catch (UntrustedRepositoryException e) {
      logger.severe("Spanflight: " + e.getMessage() + "; Spanflight does not read it and makes no profiles"
          + " (JFR creates its repository in the temporary directory, or in -XX:FlightRecorderOptions:repository=...)");
      return false;
    } catch (IOException e) {
      return afterReadFailure(e);
    } catch (Throwable t) { // JFR missing or refused: profiling off, application unaffected
      if (!closeSignal.closed() && !CloseSignal.jvmShuttingDown()) {
        logger.log(Level.SEVERE, "Spanflight: its JFR recording or its reader stopped; no more profiles", t);
      }
      return false;
    } finally {
      recording = null;
      if (ours != null) {
        ours.close();
      }
    }
  }

  /**
   * Reads our recording every {@value #POLL_MILLIS} ms until it is closed by us (false), by
   * someone else or JFR moves its repository (true); reads what was flushed before either. When
   * our reader cannot read a chunk and {@link JfrReaders#fallBack} says so, the JDK's stream reads
   * on from the newest event ours handed out.
   */
  private boolean follow(Recording ours, ReaderEvents events, List<JfrSource> enabled, EffectiveSettings inForce)
      throws IOException {
    Path repository = repository();
    try (RepositoryFollower follower = new RepositoryFollower(repository, events.reader())) {
      CalibrationEvent.commitNow(); // in the first flush: joining can begin with it
      while (true) {
        boolean open = closeSignal.pause(POLL_MILLIS);
        if (!repository.toString().equals(System.getProperty(REPOSITORY_PROPERTY))) {
          logger.info("Spanflight: JFR moved its repository (jcmd JFR.configure); starting a new recording there");
          return true;
        }
        try {
          follower.poll(); // after a close too: what was flushed before it
          if (!open) {
            stopAndReadTheRest(ours, follower);
            return false;
          }
          if (ours.getState() != RecordingState.RUNNING) {
            follower.poll(); // what JFR flushed as it closed the recording
            if (!CloseSignal.jvmShuttingDown()) {
              logger.warning("Spanflight: its JFR recording was closed by someone else; starting a new one");
            }
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
          return readWithJdk(ours, new JdkStreamEvents(enabled, joiner, methodTiming, inForce, after), from);
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

  /**
   * Reads our recording with the JDK's event stream ({@code EventStream.openRepository}), from
   * {@code from} on, until it is closed by us (false), by someone else or JFR moves its repository
   * (true). The stream delivers on a daemon thread of ours ({@value #JDK_STREAM_THREAD_NAME})
   * while this thread watches; at our close, what JFR flushed before it is read first (up to
   * {@value #LAST_FLUSH_WAIT_MILLIS} ms). A stream that stops by itself is a failed read.
   */
  private boolean readWithJdk(Recording ours, JdkStreamEvents events, Instant from) throws IOException {
    Path repository = repository();
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
      }, JDK_STREAM_THREAD_NAME);
      delivering.start();
      CalibrationEvent.commitNow();
      try {
        while (true) {
          boolean open = closeSignal.pause(POLL_MILLIS);
          if (!open) {
            awaitLastFlush();
            return false;
          }
          if (!repository.toString().equals(System.getProperty(REPOSITORY_PROPERTY))) {
            logger.info("Spanflight: JFR moved its repository (jcmd JFR.configure); starting a new recording there");
            return true;
          }
          if (ours.getState() != RecordingState.RUNNING) {
            if (!CloseSignal.jvmShuttingDown()) {
              logger.warning("Spanflight: its JFR recording was closed by someone else; starting a new one");
            }
            return true;
          }
          if (!delivering.isAlive()) {
            throw new IOException("the JDK's event stream stopped reading " + repository, failure.get());
          }
        }
      } finally {
        stream.close();
        delivering.join(CLOSE_WAIT_MILLIS);
        if (delivering.isAlive()) { // it would still feed the joiner: no other stream may start
          closeSignal.close();
          logger.warning("Spanflight: the JDK's event stream did not end within " + CLOSE_WAIT_MILLIS
              + " ms; no more profiles");
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Waits until the JDK's stream has delivered what JFR flushed up to now (a calibration committed now). */
  private void awaitLastFlush() throws InterruptedException {
    joiner.awaitCalibrationCommittedNow(LAST_FLUSH_WAIT_MILLIS);
  }

  /**
   * After a read of our recording failed (a chunk our reader refuses, or a file that went away):
   * true to start a new recording, unless {@value #MAX_READ_FAILURES} failures came within {@value
   * #READ_FAILURE_MEMORY_MINUTES} minutes of each other.
   */
  private boolean afterReadFailure(IOException e) {
    if (closeSignal.closed() || CloseSignal.jvmShuttingDown()) {
      return false; // JFR's shutdown hook deletes the repository (JDK 17): nothing went wrong
    }
    long now = System.nanoTime();
    if (now - lastReadFailure > TimeUnit.MINUTES.toNanos(READ_FAILURE_MEMORY_MINUTES)) {
      readFailures = 0;
    }
    lastReadFailure = now;
    boolean again = ++readFailures < MAX_READ_FAILURES;
    logger.log(Level.SEVERE, "Spanflight could not read its JFR recording (failure " + readFailures + " of at most "
        + MAX_READ_FAILURES + " within " + READ_FAILURE_MEMORY_MINUTES + " minutes); the events after the failure"
        + " in that flush are lost, " + (again ? "starting a new recording" : "no more profiles"), e);
    return again;
  }

  /** JFR's repository for this JVM (known once a disk recording runs). */
  private static Path repository() throws UntrustedRepositoryException {
    String path = System.getProperty(REPOSITORY_PROPERTY);
    if (path == null || path.isEmpty()) {
      throw new UntrustedRepositoryException("JFR names no repository (" + REPOSITORY_PROPERTY + " is not set)");
    }
    return Path.of(path);
  }

  /**
   * For the control view: each enabled event's setting, ours and the one JFR applies (the union
   * with every other running recording).
   */
  public List<String> settingsInForce() {
    List<String> lines = new ArrayList<>();
    for (JfrSource source : sources) {
      lines.add(source.describeInForce());
    }
    return lines;
  }

  /** The sources of our current (or last) recording. */
  List<JfrSource> recordedSources() {
    return sources;
  }

  /**
   * Why {@code eventName} may have stopped arriving, as far as we can see: our reader ended, our
   * recording is not running, or its settings were changed to leave the event off.
   */
  String blindCause(String eventName) {
    Thread t = thread;
    if (t == null || !t.isAlive()) {
      return "Spanflight's JFR reader stopped (see the line logged when it stopped)";
    }
    Recording ours = recording;
    if (ours == null || ours.getState() != RecordingState.RUNNING) {
      return "Spanflight's JFR recording is not running";
    }
    if ("false".equals(ours.getSettings().get(eventName + "#enabled"))) {
      return "someone changed the settings of Spanflight's JFR recording '" + PlainRecording.RECORDING_NAME + "' ("
          + eventName + "#enabled=false; through JMX, JDK Mission Control or in-process)";
    }
    return "JFR delivers none of these events (JFR disabled, its sampler stalled, or the settings in force changed)";
  }

  /**
   * Our recording's recent JFR data as a recording file's bytes (what it keeps: about the last
   * {@code maxAge}), or null when there is no recording yet or the dump fails.
   */
  public byte[] dumpRecent() {
    Recording ours = recording;
    return ours == null ? null : recentData.of(ours::dump);
  }

  /**
   * Closes our recording (only ours: other recordings are untouched) and waits up to {@value
   * #CLOSE_WAIT_MILLIS} ms for the consumer thread to end.
   */
  @Override
  public void close() {
    closeSignal.close(); // our thread reads what was flushed, then closes the recording
    deliverOnly.close();
    Thread t = thread;
    if (t != null && t != Thread.currentThread()) {
      try {
        t.join(CLOSE_WAIT_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      if (t.isAlive()) {
        logger.warning("Spanflight: the JFR consumer thread did not end within " + CLOSE_WAIT_MILLIS + " ms");
      }
    }
  }
}
