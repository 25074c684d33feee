package io.spanflight.internal.jfr;

import io.spanflight.internal.config.SourceSettings;
import io.spanflight.internal.profile.ProfileCollector;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import jdk.jfr.consumer.RecordingStream;

/**
 * Our JFR recording: a {@link RecordingStream} with the event types of the enabled sources at their
 * configured period, threshold, throttle or filter (limited by the {@link JfcCap}), the
 * calibration event and {@code jdk.ActiveSetting} (the settings JFR actually applies, see {@link
 * EffectiveSettings}). The daemon thread {@value #THREAD_NAME} owns the stream (opens it, and opens
 * it again if needed) and delivers its events: JFR starts no thread of its own for us.
 * Events are kept in memory (reuse off) only as long as the join needs them. Each event goes to
 * its handler: samples to the {@link SampleJoiner}, {@code jdk.MethodTiming} to {@link
 * MethodTimingDeltas}, calibrations to the joiner's clock, {@code jdk.ActiveSetting} to {@link
 * EffectiveSettings}; which events are enabled, and how, is {@link OurEvents}.
 *
 * <p>Other recordings (the user's, started with {@code -XX:StartFlightRecording}, {@code jcmd},
 * JMX or in-process) start, stop, dump and close independently of ours; they only change the
 * settings in force. If our own recording is closed by someone else (JMC lists it like any
 * other: {@link OurRecording} notices), the stream is opened again, at most once a second.
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
  private final CloseSignal closeSignal = new CloseSignal();
  private final OurRecording ours = new OurRecording();
  private volatile Thread thread;
  private final Duration maxAge;
  /** Bounds what the stream's parser keeps (see {@link ChunkRotation}); housekeeping thread. */
  private final ChunkRotation chunks = new ChunkRotation();
  private final ProfileCollector collector;
  private final RecentData recentData = new RecentData(logger);

  private Duration scopeEventThreshold;
  private StreamUse use = StreamUse.JOIN;

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
    if (CloseSignal.jvmShuttingDown()) {
      return false;
    }
    logger.warning("Spanflight: its JFR recording was closed by someone else; opening a new one");
    return closeSignal.pause(REOPEN_PAUSE_MILLIS) && !CloseSignal.jvmShuttingDown();
  }

  /** The sources this JVM has events for, at our settings (limited by the cap). */
  private List<JfrSource> enabledSources() {
    return JfrSources.of(settings, JfrSources.availableEventTypes(), cap);
  }

  /** Runs one recording stream until it ends; false when it failed (profiling stays off). */
  private boolean runOnce() {
    if (use == StreamUse.RECORD_ONLY) {
      return RecordOnlyArm.record(
          this::enabledSources, maxAge, scopeEventThreshold, enabled -> sources = enabled, closeSignal, logger);
    }
    if (use == StreamUse.OWN_READER) {
      return OwnReaderArm.read(
          this::enabledSources, maxAge, scopeEventThreshold, enabled -> sources = enabled, closeSignal, logger);
    }
    try (RecordingStream rs = new RecordingStream()) {
      rs.setReuse(false); // reusing event objects measured no fewer young collections (PetClinic, 443 vs 437)
      rs.setMaxAge(maxAge);
      List<JfrSource> enabled = enabledSources();
      EffectiveSettings inForce = new EffectiveSettings(enabled);
      OurEvents.enable(rs::enable, rs::enable, enabled, scopeEventThreshold);
      rs.onEvent(EffectiveSettings.ACTIVE_SETTING, inForce::onActiveSetting);
      for (JfrSource source : enabled) {
        if (use == StreamUse.DELIVER_ONLY) {
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
      if (!closeSignal.closed()) {
        // start(), not startAsync(): the events are delivered on this daemon thread. The thread
        // that startAsync() creates is not a daemon on JDK 25 and kept every JVM alive.
        ours.watchWhile(rs::start);
      }
      return true;
    } catch (Throwable t) { // JFR missing or refused: profiling off, application unaffected
      if (!closeSignal.closed()) {
        logger.log(Level.SEVERE, "Spanflight: the JFR stream stopped; no more profiles", t);
      }
      return false;
    }
  }

  /** On the stream's first flush, when our recording is known to run. */
  private final class FirstFlush implements Runnable {
    private boolean seen;

    @Override
    public void run() {
      if (!seen) {
        seen = true;
        ours.firstFlush();
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
    if (rs == null || !ours.running() || closeSignal.closed()) {
      return;
    }
    if (ours.endedBySomeoneElse()) {
      rs.close();
      return;
    }
    if (chunks.rotateIfDue(System.nanoTime())) {
      collector.forgetParserObjects(); // the old chunk's objects can go once the parser is done
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
   * The stream's recent JFR data as a recording file's bytes (what it keeps: about the last
   * {@code maxAge}), or null when there is no stream yet or the dump fails.
   */
  public byte[] dumpRecent() {
    RecordingStream rs = stream;
    return rs == null ? null : recentData.of(rs);
  }

  /**
   * Closes our recording (only ours: other recordings are untouched) and waits up to {@value
   * #CLOSE_WAIT_MILLIS} ms for the consumer thread to end.
   */
  @Override
  public void close() {
    closeSignal.close();
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
