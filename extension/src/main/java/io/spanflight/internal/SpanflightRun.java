package io.spanflight.internal;

import io.opentelemetry.sdk.common.CompletableResultCode;
import io.spanflight.internal.config.SpanflightConfig;
import io.spanflight.internal.correlate.DrainPace;
import io.spanflight.internal.costs.SpanCosts;
import io.spanflight.internal.export.ProfileExporter;
import io.spanflight.internal.jfr.JfrSampleStream;
import io.spanflight.internal.jfr.StreamUse;
import io.spanflight.internal.jfr.clock.CalibrationEvent;
import io.spanflight.internal.jfr.clock.CalibrationPace;
import io.spanflight.internal.profile.EpochClock;
import io.spanflight.internal.profile.ProfileInterval;
import io.spanflight.internal.threads.BackgroundCompilation;
import io.spanflight.internal.threads.OwnThreads;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One stretch of time during which profiling is on: our JFR stream, the exporter and the two
 * background threads, working on the {@link DataPath}. Created when profiling is switched on,
 * {@link #stop() stopped} when it is switched off; nothing of it outlives that (a new run creates
 * everything again).
 *
 * <pre>
 *  "spanflight-timeline":      every 10-50 ms (DrainPace) drain rings into the timelines
 *  "spanflight-export" thread: every 1 s  calibration (CalibrationPace: 1/s, then 1/10 s), prune
 *                                         timelines (behind the stream's watermark) + registry,
 *                                         metrics
 *                              every interval: ProfileCollector.takeInterval() ─► encode ─► exporter,
 *                                              then BlindSources (a sampling source gone silent?)
 *  "spanflight-jfr" thread:    owns JfrSampleStream and delivers its events
 *                              ─► SampleJoiner ─► correlate.TimelineJoin ─► ProfileCollector
 * </pre>
 *
 * <p>Every task on the background threads catches its own failures; nothing reaches application
 * threads.
 *
 * <p>Not API: internal to Spanflight.
 */
final class SpanflightRun {
  /**
   * Timelines keep this much history behind the newest event the JFR stream has delivered (its
   * watermark): a sample that starts that long before the watermark (a duration event committed
   * late) finds its stretch pruned and is counted as unknown-timeline, never joined to a wrong span.
   */
  static final long TIMELINE_HORIZON_NANOS = TimeUnit.SECONDS.toNanos(3);
  /** JFR flushes once a second; at shutdown we wait at most this long for the last flush. */
  static final long SHUTDOWN_DELIVERY_WAIT_MILLIS = 2500;

  private static final Logger logger = Logger.getLogger("io.spanflight");

  private final DataPath path;
  private final Supplier<ProfileExporter> newExporter;
  private final SpanflightConfig config;
  private final JfrSampleStream stream;
  private final ScheduledExecutorService scheduler = daemonScheduler("spanflight-export");
  /** Drains the rings on its own thread, so encoding or pruning never delays a drain. */
  private final ScheduledExecutorService drainer = daemonScheduler("spanflight-timeline");
  private final CalibrationPace calibrationPace;
  private final DrainPace drainPace;
  /** The registry slots the timelines still refer to, refilled at each prune. */
  private final BitSet referenced = new BitSet();
  private volatile ProfileExporter exporter = ProfileExporter.NONE;
  /** Set once stop() has stopped waiting for the start: a start still at work then undoes itself. */
  private boolean stopped; // guarded by this
  private byte[] lastPayload;

  SpanflightRun(DataPath path) {
    this(path, path::newExporter);
  }

  /** @param newExporter makes the run's exporter on the background thread (tests: a slow one) */
  SpanflightRun(DataPath path, Supplier<ProfileExporter> newExporter) {
    this.path = path;
    this.newExporter = newExporter;
    this.config = path.config();
    this.stream = path.newStream();
    this.calibrationPace = new CalibrationPace(
        path.joiner().counts()::calibrations, path.joiner().counts()::trustedAheadNanos, CalibrationEvent::commitNow);
    this.drainPace = new DrainPace(config.ringSize());
  }

  private static ScheduledExecutorService daemonScheduler(String name) {
    return Executors.newSingleThreadScheduledExecutor(OwnThreads.factory(name));
  }

  /** Starts the run: the exporter is created and the JFR stream started on the background thread. */
  void start() {
    scheduler.execute(guarded("start", this::startInBackground));
  }

  private void startInBackground() {
    DiagnosticMode mode = path.mode();
    String virtualThreads = mode.capture ? path.mountHooks().installOnce() : "no capture";
    String methodHooks = path.methodSources().startHooks();
    String compilation = config.backgroundC2()
        ? "background code compiled as usual (" + SpanflightConfig.BACKGROUND_C2 + "=true)"
        : BackgroundCompilation.applyOnce(config.nativeDirectory());
    ProfileExporter created = newExporter.get();
    if (!begin(created, mode)) {
      created.shutdown(); // stop() gave up waiting for this start and has closed the rest of the run
      return;
    }
    long interval = config.exportInterval().toMillis();
    path.blindSources().runStarted();
    try {
      drainer.execute(this::drainUntilStopped);
      scheduler.scheduleWithFixedDelay(guarded("housekeeping", this::housekeeping), 0, 1, TimeUnit.SECONDS);
      scheduler.scheduleAtFixedRate(guarded("export", this::exportAndWatch), interval, interval, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      return; // switched off while starting: stop() closes the stream and the exporter
    }
    logger.info("Spanflight " + DataPath.VERSION + " started: timeline=" + path.bridge().implementation() + ", "
        + virtualThreads + ", " + methodHooks + ", " + compilation + ", profiles to " + exporter.destination() + ", " + config.describe());
  }

  /**
   * Puts the exporter in place and starts our stream, unless {@link #stop()} has already closed the
   * run (it waits only 2 s for a start, which may take longer: TLS files, a busy host): then this
   * start has the exporter it made to shut down itself, and the stream stays unstarted. Under the
   * lock, so that every exporter and stream is closed by exactly one of start and stop.
   */
  private synchronized boolean begin(ProfileExporter created, DiagnosticMode mode) {
    if (stopped) {
      return false;
    }
    exporter = created;
    if (mode.stream != null) {
      stream.use(mode.stream);
      stream.start();
    }
    return true;
  }

  /**
   * The drain thread's one task, for the whole run: sleeps for the pace the rings' filling calls
   * for, drains, and again, until {@link #stop} interrupts it. One task in a loop rather than a task
   * that queues the next: every task queued went through the agent's executor instrumentation
   * (context capture, call-depth bookkeeping), which on Spring PetClinic cost Spanflight's drain
   * thread a fifth of its CPU (async-profiler, 2026-11-30). It sleeps rather than waiting on the
   * executor's delay queue: a park of 20 ms or more is a {@code jdk.ThreadPark} event, stack trace
   * included, that our own recording takes and our stream reads only to drop (20 a second at the
   * slow pace); sleeps are not in our recording.
   */
  private void drainUntilStopped() {
    long[] next = {DrainPace.FASTEST_MILLIS};
    Runnable drain = guarded("drain", () -> next[0] = path.timelines().drainPaced(drainPace));
    while (!Thread.currentThread().isInterrupted()) {
      try {
        Thread.sleep(next[0]);
      } catch (InterruptedException e) {
        return; // the run is stopping (shutdownNow)
      }
      next[0] = DrainPace.FASTEST_MILLIS; // after a failed drain too (logged by guarded)
      drain.run();
    }
  }

  private void housekeeping() {
    path.processContext().publish();
    calibrationPace.commitIfDue(System.nanoTime());
    prune();
    if (path.spanCosts() != null) {
      path.spanCosts().expire(path.joiner().watermarkNanos() - SpanCosts.EXPIRY_NANOS);
    }
    path.metrics().tick();
  }

  /** Forgets the history and the contexts that no sample will be joined against any more. */
  private void prune() {
    path.timelines().drain();
    path.methodSources().drain(); // traced calls join the timelines before they are pruned
    // Behind what the stream has delivered, not behind the wall clock: a stream that falls behind
    // (long GC pause, busy machine) still finds the history of the samples it has yet to deliver.
    long watermark = path.mode().stream == null ? System.nanoTime() : path.joiner().watermarkNanos();
    path.timelines().pruneBehind(watermark, TIMELINE_HORIZON_NANOS);
    path.timelines().referencedIds(referenced);
    path.registry().prune(referenced::get);
  }

  CompletableResultCode exportInterval() {
    return exportInterval(false);
  }

  /** Each interval: exports it, then checks that the sampling sources are not blind. */
  private void exportAndWatch() {
    exportInterval();
    if (path.mode().stream == StreamUse.JOIN) {
      path.blindSources().intervalEnded(stream);
    }
  }

  /** @param last the run's last interval: our stream is closed, its raw data was kept before */
  private CompletableResultCode exportInterval(boolean last) {
    ProfileInterval interval = path.collector().takeInterval();
    try {
      return export(interval, last);
    } finally {
      path.collector().recycle(interval); // encoded and written: its tables serve the next one
    }
  }

  private CompletableResultCode export(ProfileInterval interval, boolean last) {
    if (interval.sampleCount() == 0) {
      return CompletableResultCode.ofSuccess(); // collectors drop requests without samples
    }
    long end = EpochClock.nowNanos();
    byte[] payload = !config.rawPayload() ? null : last ? lastPayload : stream.dumpRecent();
    byte[] request = path.encoder().encode(interval, end, payload);
    CompletableResultCode result = exporter.export(request, interval, end);
    if (logger.isLoggable(Level.FINE)) {
      logger.fine("Spanflight exported " + interval.sampleCount() + " samples (" + interval.linkedSampleCount()
          + " linked, " + request.length + " bytes); since start: " + path.joiner().counts().summary() + ", timelines: "
          + path.timelines().threadCount() + " threads, " + path.timelines().stepCount() + " steps, registry: "
          + path.registry().size());
    }
    return result;
  }

  /** The exporter of this run (the none exporter until the run has started). */
  ProfileExporter exporter() {
    return exporter;
  }

  /** For the control view. */
  List<String> settingsInForce() {
    return stream.settingsInForce();
  }

  /**
   * Ends the run: stops the background threads, lets the JFR stream deliver what was sampled up to
   * now (it flushes once a second), closes our stream (other recordings are untouched), exports
   * the last interval and waits for that export, all within a few seconds. The caller has already
   * stopped recording context switches. A start still at work after 2 s is not waited for: it
   * shuts down the exporter it makes and starts no stream ({@link #begin}).
   */
  void stop() throws InterruptedException {
    drainer.shutdownNow();
    // Not interrupted at once: an export under way would lose its interval (the file exporter's
    // write fails with ClosedByInterruptException). A start still at work after 2 s is interrupted.
    scheduler.shutdown();
    try {
      drainer.awaitTermination(2, TimeUnit.SECONDS);
      if (!scheduler.awaitTermination(2, TimeUnit.SECONDS)) {
        scheduler.shutdownNow();
      }
    } finally {
      synchronized (this) {
        stopped = true; // from here on (interrupted too), a start still at work closes what it makes itself
      }
    }
    if (path.mode() == DiagnosticMode.FULL) {
      path.joiner().awaitCalibrationCommittedNow(SHUTDOWN_DELIVERY_WAIT_MILLIS);
    }
    if (config.rawPayload()) {
      lastPayload = stream.dumpRecent(); // while our stream is still open
    }
    stream.close();
    path.methodSources().drain();
    exportInterval(true); // queued; the exporter's shutdown delivers it within its flush timeout
    long flushMillis = config.otlp() != null ? config.otlp().shutdownTimeout().toMillis() : 0;
    exporter.shutdown().join(flushMillis + 2000, TimeUnit.MILLISECONDS);
  }

  /** {@code body}, its failures logged (throttled) instead of ending the thread that runs it. */
  private Runnable guarded(String task, Runnable body) {
    return () -> {
      try {
        body.run();
      } catch (Throwable t) {
        path.taskFailures().log(Level.WARNING, "Spanflight background task '" + task + "' failed", t);
      }
    };
  }
}
