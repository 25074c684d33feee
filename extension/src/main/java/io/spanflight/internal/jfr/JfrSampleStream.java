package io.spanflight.internal.jfr;

import io.spanflight.internal.config.SourceSettings;
import io.spanflight.internal.logging.ThrottledLogger;
import io.spanflight.internal.profile.ProfileCollector;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.Map;
import java.util.function.Function;
import jdk.jfr.Event;
import jdk.jfr.EventSettings;
import jdk.jfr.EventType;
import jdk.jfr.FlightRecorder;
import jdk.jfr.FlightRecorderListener;
import jdk.jfr.Recording;
import jdk.jfr.RecordingState;
import jdk.jfr.consumer.RecordingStream;

/**
 * Our JFR recording: a {@link RecordingStream} with the event types of the enabled sources at their
 * configured period, threshold, throttle or filter (limited by the {@link JfcCap}), the
 * calibration event and {@code jdk.ActiveSetting} (the settings JFR actually applies, see {@link
 * EffectiveSettings}). The daemon thread {@value #THREAD_NAME} owns the stream (opens it, and opens
 * it again if needed) and delivers its events: JFR starts no thread of its own for us.
 * Events are kept in memory (reuse off) only as long as the join needs them.
 *
 * <p>Other recordings (the user's, started with {@code -XX:StartFlightRecording}, {@code jcmd},
 * JMX or in-process) start, stop, dump and close independently of ours; they only change the
 * settings in force. If our own recording is closed by someone else (JMC lists it like any
 * other), the stream is opened again, at most once a second.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class JfrSampleStream implements AutoCloseable {
  public static final String THREAD_NAME = "spanflight-jfr";
  private static final Logger logger = Logger.getLogger(JfrSampleStream.class.getName());

  static final long REOPEN_PAUSE_MILLIS = 1000;
  static final long CLOSE_WAIT_MILLIS = 5000;

  private final List<SourceSettings> settings;
  private final SampleJoiner joiner;
  private final MethodTimingDeltas methodTiming;
  private final JfcCap cap;
  private volatile RecordingStream stream;
  private volatile List<JfrSource> sources = List.of();
  private volatile boolean closed;
  /**
   * True while our stream runs and its recording can be told from others; cleared when we find
   * our recording closed by someone else.
   */
  private volatile boolean running;
  private volatile Thread thread;
  private final Object reopenLock = new Object();
  private final Duration maxAge;
  /** Bounds what the stream's parser keeps (see {@link ChunkRotation}); housekeeping thread. */
  private final ChunkRotation chunks = new ChunkRotation();
  private final ProfileCollector collector;
  private final ThrottledLogger dumpFailures = new ThrottledLogger(logger, 1, TimeUnit.MINUTES);

  private Duration scopeEventThreshold;
  private Use use = Use.JOIN;

  /**
   * What the stream does with JFR's events. Only {@link #JOIN} is Spanflight; the other two are
   * arms of the overhead benchmark ({@code benchmarks/overhead}), which measure what the JFR events
   * alone cost.
   */
  public enum Use {
    /** Every event is joined and collected: Spanflight. */
    JOIN,
    /** The same events are delivered to our thread and dropped: JFR's parsing, no join. */
    DELIVER_ONLY,
    /** A plain recording of the same events that nobody reads: what JFR costs by itself. */
    RECORD_ONLY
  }

  /** @param maxAge how much JFR data the stream keeps (and {@link #dumpRecent} returns) */
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
    this.collector = collector;
    this.methodTiming = new MethodTimingDeltas(collector);
  }

  /** Also records {@link SpanScopeEvent}s of scopes longer than {@code threshold}; call before start. */
  public void recordScopeEvents(Duration threshold) {
    this.scopeEventThreshold = threshold;
  }

  /** For the overhead benchmark only: see {@link Use}; call before start. */
  public void use(Use use) {
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
    while (!closed) {
      if (!first && !pauseBeforeReopening()) {
        return;
      }
      if (!runOnce()) {
        return;
      }
      first = false;
    }
  }

  /**
   * Waits a second (or until closed); false when closed meanwhile or when the JVM is shutting down
   * (JFR's own shutdown hook closes every recording, ours included).
   */
  private boolean pauseBeforeReopening() {
    if (jvmShuttingDown()) {
      return false;
    }
    logger.warning("Spanflight: its JFR recording was closed by someone else; opening a new one");
    long deadline = System.nanoTime() + REOPEN_PAUSE_MILLIS * 1_000_000L;
    synchronized (reopenLock) {
      long left;
      while (!closed && (left = deadline - System.nanoTime()) > 0) {
        try {
          reopenLock.wait(Math.max(1, left / 1_000_000L));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return false;
        }
      }
    }
    return !closed && !jvmShuttingDown();
  }

  private static boolean jvmShuttingDown() {
    Thread probe = new Thread(() -> {});
    try {
      Runtime.getRuntime().addShutdownHook(probe);
      Runtime.getRuntime().removeShutdownHook(probe);
      return false;
    } catch (IllegalStateException e) {
      return true;
    }
  }

  /** Runs one recording stream until it ends; false when it failed (profiling stays off). */
  private boolean runOnce() {
    if (use == Use.RECORD_ONLY) {
      return recordOnly();
    }
    try (RecordingStream rs = new RecordingStream()) {
      rs.setReuse(false); // reusing event objects measured no fewer young collections (PetClinic, 443 vs 437)
      rs.setMaxAge(maxAge);
      List<JfrSource> enabled =
          JfrSources.of(settings, JfrSources.availableEventTypes(), cap);
      EffectiveSettings inForce = new EffectiveSettings(enabled);
      enableEvents(rs::enable, rs::enable, enabled);
      rs.onEvent(EffectiveSettings.ACTIVE_SETTING, inForce::onActiveSetting);
      for (JfrSource source : enabled) {
        if (use == Use.DELIVER_ONLY) {
          rs.onEvent(source.eventName, event -> {});
        } else if (source.eventName.equals(JfrSources.METHOD_TIMING)) {
          rs.onEvent(source.eventName, methodTiming::onEvent);
        } else {
          rs.onEvent(source.eventName, event -> joiner.onEvent(source, event));
        }
      }
      rs.onEvent(CalibrationEvent.NAME, joiner::onCalibration);
      rs.onFlush(new FirstFlush());
      sources = enabled;
      stream = rs;
      if (!closed) {
        FlightRecorder.addListener(startWatch);
        try {
          // start(), not startAsync(): the events are delivered on this daemon thread. The thread
          // that startAsync() creates is not a daemon on JDK 25 and kept every JVM alive.
          rs.start();
        } finally {
          FlightRecorder.removeListener(startWatch);
          running = false;
        }
      }
      return true;
    } catch (Throwable t) { // JFR missing or refused: profiling off, application unaffected
      if (!closed) {
        logger.log(Level.SEVERE, "Spanflight: the JFR stream stopped; no more profiles", t);
      }
      return false;
    }
  }

  /** Enables our event types, the same way in a {@link RecordingStream} and a {@link Recording}. */
  private void enableEvents(
      Function<String, EventSettings> byName,
      Function<Class<? extends Event>, EventSettings> byClass,
      List<JfrSource> enabled) {
    byName.apply(EffectiveSettings.ACTIVE_SETTING);
    for (JfrSource source : enabled) {
      byName.apply(source.eventName).with(source.setting, source.settingValue).withStackTrace();
      if (source.eventName.equals(JfrSources.METHOD_TIMING)) {
        // cumulative figures, turned into per-interval deltas; once a second keeps them fresh
        byName.apply(source.eventName).withPeriod(Duration.ofSeconds(1));
      }
    }
    if (scopeEventThreshold != null) {
      byClass.apply(SpanScopeEvent.class).withThreshold(scopeEventThreshold);
    }
    byClass.apply(CalibrationEvent.class).withoutStackTrace();
  }

  /**
   * {@link Use#RECORD_ONLY}: the same events in a plain recording on disk, kept as long as our
   * stream keeps them, read by nobody; returns when closed.
   */
  private boolean recordOnly() {
    try (Recording recording = new Recording()) {
      recording.setToDisk(true);
      recording.setMaxAge(maxAge);
      List<JfrSource> enabled = JfrSources.of(settings, JfrSources.availableEventTypes(), cap);
      enableEvents(recording::enable, recording::enable, enabled);
      sources = enabled;
      recording.start();
      synchronized (reopenLock) {
        while (!closed) {
          reopenLock.wait();
        }
      }
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } catch (Throwable t) {
      logger.log(Level.SEVERE, "Spanflight: the JFR recording failed", t);
      return false;
    }
  }

  /**
   * Marks our stream running as soon as JFR reports our recording running (called on the thread
   * that changed its state), so that someone closing it even before its first flush is noticed.
   */
  private final FlightRecorderListener startWatch =
      new FlightRecorderListener() {
        @Override
        public void recordingStateChanged(Recording recording) {
          if (recording.getState() == RecordingState.RUNNING && isOurs(recording)) {
            running = true;
          }
        }
      };

  /** On the stream's first flush, when our recording is known to run. */
  private final class FirstFlush implements Runnable {
    private boolean seen;

    @Override
    public void run() {
      if (!seen) {
        seen = true;
        if (!running) { // the start watch did not see it (only watch where we can tell ours)
          running = ourRecordingRuns();
        }
        // Joining can begin with the next flush instead of a housekeeping tick later.
        CalibrationEvent.commitNow();
      }
    }
  }

  /**
   * Called about once a second: if someone else stopped or closed our recording (JMC lists it like
   * any other), ends our stream so that a new one is opened; otherwise ends JFR's chunk when due
   * ({@link ChunkRotation}). On JDK 17 the stream ends by itself;
   * on JDK 25 it keeps waiting for events that never come.
   */
  public void checkOurRecording() {
    RecordingStream rs = stream;
    if (rs == null || !running || closed) {
      return;
    }
    if (!ourRecordingRuns()) {
      running = false;
      rs.close();
      return;
    }
    if (chunks.rotateIfDue(System.nanoTime())) {
      collector.forgetParserObjects(); // the old chunk's objects can go once the parser is done
    }
  }

  /** Our recording is the running one with a setting of our calibration event (keyed by id or name). */
  private static boolean ourRecordingRuns() {
    for (Recording recording : FlightRecorder.getFlightRecorder().getRecordings()) {
      if (recording.getState() == RecordingState.RUNNING && isOurs(recording)) {
        return true;
      }
    }
    return false;
  }

  static boolean isOurs(Recording recording) {
    Map<String, String> settings = recording.getSettings();
    return settings.containsKey(EventType.getEventType(CalibrationEvent.class).getId() + "#enabled")
        || settings.containsKey(CalibrationEvent.NAME + "#enabled");
  }

  /**
   * For the control view: each enabled event's setting, ours and the one JFR applies (the union
   * with every other running recording).
   */
  public List<String> settingsInForce() {
    List<String> lines = new java.util.ArrayList<>();
    for (JfrSource source : sources) {
      lines.add(source.describeInForce());
    }
    return lines;
  }

  /**
   * The stream's recent JFR data as a recording file's bytes (what it keeps: about the last
   * {@code maxAge}), or null when there is no stream yet or the dump fails.
   */
  public byte[] dumpRecent() {
    RecordingStream rs = stream;
    if (rs == null) {
      return null;
    }
    Path file = null;
    try {
      file = Files.createTempFile("spanflight-", ".jfr");
      rs.dump(file);
      return Files.readAllBytes(file);
    } catch (IOException | RuntimeException e) {
      dumpFailures.log(Level.WARNING, "Spanflight could not dump the JFR data for original_payload", e);
      return null;
    } finally {
      deleteQuietly(file);
    }
  }

  private static void deleteQuietly(Path file) {
    if (file != null) {
      try {
        Files.deleteIfExists(file);
      } catch (IOException e) {
        logger.log(Level.FINE, "Spanflight could not delete " + file, e);
      }
    }
  }

  /**
   * Closes our recording (only ours: other recordings are untouched) and waits up to {@value
   * #CLOSE_WAIT_MILLIS} ms for the consumer thread to end.
   */
  @Override
  public void close() {
    closed = true;
    synchronized (reopenLock) {
      reopenLock.notifyAll();
    }
    RecordingStream rs = stream;
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
