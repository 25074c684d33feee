package io.spanflight.internal.jfr;

import io.spanflight.internal.config.SourceSettings;
import io.spanflight.internal.jfr.chunk.ChunkFormatException;
import io.spanflight.internal.jfr.chunk.RepositoryFollower;
import io.spanflight.internal.jfr.chunk.UntrustedRepositoryException;
import io.spanflight.internal.jfr.join.SampleJoiner;
import io.spanflight.internal.profile.ProfileCollector;
import io.spanflight.internal.threads.OwnThreads;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.logging.Level;
import java.util.logging.Logger;
import jdk.jfr.Recording;
import jdk.jfr.RecordingState;

/**
 * Our JFR recording and its reader. The recording is a plain disk {@link Recording} with the event
 * types of the enabled sources at their configured period, threshold, throttle or filter (limited
 * by the {@link JfcCap}), the calibration event and {@code jdk.ActiveSetting} (the settings JFR
 * actually applies, see {@link EffectiveSettings}); which events, and how, is {@link OurEvents}.
 * The daemon thread {@value #THREAD_NAME} owns it: starts it, follows the chunk files JFR writes
 * into its repository with our own {@link io.spanflight.internal.jfr.chunk.ChunkReader} (every
 * {@value CloseSignal#POLL_MILLIS} ms; JFR flushes once a second), and hands each event, in time order, to
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
 * up to {@value ReadFailures#MAX_READ_FAILURES} times within {@value
 * ReadFailures#READ_FAILURE_MEMORY_MINUTES} minutes).
 * A repository that is not this user's is not read at all: see {@link RepositoryFollower}.
 *
 * <p>When our reader cannot read a chunk (a {@link ChunkFormatException}), {@code jfr.join.JfrReaders}
 * decides: by default the JDK's event stream reads on, from the newest event ours handed out, for
 * the rest of the JVM's life ({@link JdkStreamEvents}, delivering on {@value
 * JdkStreamReading#THREAD_NAME}); {@code otel.spanflight.jfr.reader} can force either reader.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class JfrSampleStream implements AutoCloseable {
  public static final String THREAD_NAME = "spanflight-jfr";
  private static final Logger logger = Logger.getLogger(JfrSampleStream.class.getName());

  static final long REOPEN_PAUSE_MILLIS = 1000;

  private final List<SourceSettings> settings;
  private final SampleJoiner joiner;
  private final MethodTimingDeltas methodTiming;
  private final JfcCap cap;
  /** Our running recording, or null. */
  private volatile Recording recording;
  /** Runs the diagnostic modes, when {@link #use} names one. */
  private final DiagnosticStreams diagnostics = new DiagnosticStreams();
  private volatile List<JfrSource> sources = List.of();
  private final CloseSignal closeSignal = new CloseSignal();
  private volatile Thread thread;
  private final Duration maxAge;
  private final RecentData recentData = new RecentData(logger);
  private final ReadFailures readFailures = new ReadFailures(logger);
  private final JdkStreamReading jdkStream;
  private final ChunkReading chunks;

  private Duration scopeEventThreshold;
  private StreamUse use = StreamUse.JOIN;

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
    this.jdkStream = new JdkStreamReading(joiner, closeSignal, logger);
    this.chunks = new ChunkReading(joiner, methodTiming, closeSignal, jdkStream, logger);
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
      while (!feeding.tryLock(CloseSignal.POLL_MILLIS, TimeUnit.MILLISECONDS)) { // an earlier stream's thread still reads
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
    if (use != StreamUse.JOIN) {
      return diagnostics.run(
          use, this::enabledSources, maxAge, scopeEventThreshold, enabled -> sources = enabled, closeSignal, logger);
    }
    return recordAndRead();
  }

  /**
   * Starts our recording and reads it as JFR flushes it, until it is closed: by us (false), or by
   * someone else, when JFR moves its repository, or after a failed read (true: start a new one).
   * The reader is ours, or the JDK's stream when {@code jfr.join.JfrReaders} says so.
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
        return jdkStream.read(ours, new JdkStreamEvents(enabled, joiner, methodTiming, inForce, Long.MIN_VALUE),
            ours.getStartTime());
      }
      return chunks.read(ours, events, enabled, inForce);
    } catch (UntrustedRepositoryException e) {
      logger.severe("Spanflight: " + e.getMessage() + "; Spanflight does not read it and makes no profiles"
          + " (JFR creates its repository in the temporary directory, or in -XX:FlightRecorderOptions:repository=...)");
      return false;
    } catch (IOException e) {
      return readFailures.startAgainAfter(e, closeSignal);
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
   * CloseSignal#CLOSE_WAIT_MILLIS} ms for the consumer thread to end.
   */
  @Override
  public void close() {
    closeSignal.close(); // our thread reads what was flushed, then closes the recording
    diagnostics.close();
    Thread t = thread;
    if (t != null && t != Thread.currentThread()) {
      try {
        t.join(CloseSignal.CLOSE_WAIT_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      if (t.isAlive()) {
        logger.warning("Spanflight: the JFR consumer thread did not end within " + CloseSignal.CLOSE_WAIT_MILLIS + " ms");
      }
    }
  }
}
