package io.spanflight.internal.jfr;

import io.spanflight.internal.config.SourceSettings;
import io.spanflight.internal.jfr.chunk.ChunkFormatException;
import io.spanflight.internal.jfr.chunk.RepositoryFollower;
import io.spanflight.internal.jfr.chunk.UntrustedRepositoryException;
import io.spanflight.internal.profile.ProfileCollector;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import jdk.jfr.Recording;
import jdk.jfr.RecordingState;
import jdk.jfr.consumer.RecordingStream;

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
 * JFR moves its repository, and after a chunk our reader cannot read (up to {@value
 * #MAX_UNREADABLE_CHUNKS} times). A repository that others can write is not read at all: see
 * {@link RepositoryFollower}.
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
  /** Unreadable chunks after which Spanflight stops starting new recordings. */
  static final int MAX_UNREADABLE_CHUNKS = 3;

  private final List<SourceSettings> settings;
  private final SampleJoiner joiner;
  private final MethodTimingDeltas methodTiming;
  private final JfcCap cap;
  /** Our running recording, or null. */
  private volatile Recording recording;
  /** The benchmark's {@link StreamUse#DELIVER_ONLY} stream, or null. */
  private volatile RecordingStream deliverOnlyStream;
  private volatile List<JfrSource> sources = List.of();
  private final CloseSignal closeSignal = new CloseSignal();
  private volatile Thread thread;
  private final Duration maxAge;
  private final RecentData recentData = new RecentData(logger);

  private Duration scopeEventThreshold;
  private StreamUse use = StreamUse.JOIN;
  /** Chunks our reader could not read so far (this thread). */
  private int unreadableChunks;

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

  /** For the overhead benchmark only: see {@link StreamUse}; call before start. */
  public void use(StreamUse use) {
    this.use = use;
  }

  public void start() {
    Thread t = new Thread(this::run, THREAD_NAME);
    t.setDaemon(true);
    thread = t;
    t.start();
  }

  private void run() {
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
  }

  /** The sources this JVM has events for, at our settings (limited by the cap). */
  private List<JfrSource> enabledSources() {
    return JfrSources.of(settings, JfrSources.availableEventTypes(), cap);
  }

  /** Runs one recording until it ends; true when a new one should be started. */
  private boolean runOnce() {
    switch (use) {
      case RECORD_ONLY:
        return RecordOnlyArm.record(
            this::enabledSources, maxAge, scopeEventThreshold, enabled -> sources = enabled, closeSignal, logger);
      case OWN_READER:
        return OwnReaderArm.read(
            this::enabledSources, maxAge, scopeEventThreshold, enabled -> sources = enabled, closeSignal, logger);
      case DELIVER_ONLY:
        return deliverOnly();
      default:
        return recordAndRead();
    }
  }

  /**
   * Starts our recording and reads it as JFR flushes it, until it is closed: by us (false), or by
   * someone else or after an unreadable chunk (true: start a new one).
   */
  private boolean recordAndRead() {
    List<JfrSource> enabled = enabledSources();
    ReaderEvents events = new ReaderEvents(enabled, joiner, methodTiming, new EffectiveSettings(enabled));
    try (Recording ours = RecordOnlyArm.start(enabled, maxAge, scopeEventThreshold, e -> sources = e)) {
      recording = ours;
      Path repository = repository();
      try (RepositoryFollower follower = new RepositoryFollower(repository, events.reader())) {
        CalibrationEvent.commitNow(); // in the first flush: joining can begin with it
        while (true) {
          boolean open = closeSignal.pause(POLL_MILLIS);
          follower.poll(); // also after a close: what was flushed before it
          if (!open) {
            return false;
          }
          if (ours.getState() != RecordingState.RUNNING) {
            if (!CloseSignal.jvmShuttingDown()) {
              logger.warning("Spanflight: its JFR recording was closed by someone else; starting a new one");
            }
            return true;
          }
          if (!repository.toString().equals(System.getProperty(REPOSITORY_PROPERTY))) {
            logger.info("Spanflight: JFR moved its repository (jcmd JFR.configure); following the new one");
            return true;
          }
        }
      }
    } catch (UntrustedRepositoryException e) {
      logger.severe("Spanflight: " + e.getMessage() + "; Spanflight does not read it and makes no profiles. Start the JVM"
          + " with a umask that gives no one else write access (umask 022), so that JFR creates its repository so");
      return false;
    } catch (ChunkFormatException e) {
      boolean again = ++unreadableChunks < MAX_UNREADABLE_CHUNKS;
      logger.log(Level.SEVERE, "Spanflight could not read a chunk of its JFR recording (" + unreadableChunks + " of "
          + MAX_UNREADABLE_CHUNKS + " allowed); the samples since the last flush are lost, "
          + (again ? "starting a new recording" : "no more profiles"), e);
      return again;
    } catch (Throwable t) { // JFR missing or refused: profiling off, application unaffected
      if (!closeSignal.closed() && !CloseSignal.jvmShuttingDown()) {
        logger.log(Level.SEVERE, "Spanflight: its JFR recording or its reader stopped; no more profiles", t);
      }
      return false;
    } finally {
      recording = null;
    }
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
   * The benchmark's {@link StreamUse#DELIVER_ONLY} arm: the same events through the JDK's {@code
   * RecordingStream}, delivered to this thread and dropped; until closed, not opened again.
   */
  private boolean deliverOnly() {
    try (RecordingStream rs = new RecordingStream()) {
      rs.setReuse(false);
      rs.setMaxAge(maxAge);
      List<JfrSource> enabled = enabledSources();
      OurEvents.enable(rs::enable, rs::enable, enabled, scopeEventThreshold);
      for (JfrSource source : enabled) {
        rs.onEvent(source.eventName, event -> {});
      }
      sources = enabled;
      deliverOnlyStream = rs;
      if (!closeSignal.closed()) {
        rs.start(); // on this daemon thread, until close() closes it
      }
      return false;
    } catch (Throwable t) {
      logger.log(Level.SEVERE, "Spanflight: the JFR stream (benchmark arm) stopped", t);
      return false;
    }
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
    RecordingStream rs = deliverOnlyStream;
    if (rs != null) {
      rs.close();
    }
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
