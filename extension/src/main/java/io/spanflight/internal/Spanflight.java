package io.spanflight.internal;

import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.resources.Resource;
import io.spanflight.internal.bridge.ContextBridge;
import io.spanflight.internal.bridge.ContextBridges;
import io.spanflight.internal.capture.CarrierRecordWriter;
import io.spanflight.internal.capture.SpanflightContextStorage;
import io.spanflight.internal.capture.SwitchRecorder;
import io.spanflight.internal.config.SpanflightConfig;
import io.spanflight.internal.correlate.Timelines;
import io.spanflight.internal.export.FileProfileExporter;
import io.spanflight.internal.export.OtlpProfileExporters;
import io.spanflight.internal.export.ProfileExporter;
import io.spanflight.internal.export.ThrottledLogger;
import io.spanflight.internal.instrumentation.VirtualThreadHooks;
import io.spanflight.internal.jfr.CalibrationEvent;
import io.spanflight.internal.jfr.JfrClock;
import io.spanflight.internal.jfr.JfrSampleStream;
import io.spanflight.internal.jfr.SampleJoiner;
import io.spanflight.internal.profile.EpochClock;
import io.spanflight.internal.profile.ExportRequestEncoder;
import io.spanflight.internal.profile.ProfileCollector;
import io.spanflight.internal.profile.ProcessContextEncoder;
import io.spanflight.internal.profile.ProfileInterval;
import io.spanflight.internal.registry.AttributeKeyMap;
import io.spanflight.internal.registry.ContextAttributes;
import io.spanflight.internal.registry.ContextRegistry;
import io.spanflight.internal.registry.LocalRoots;
import java.time.Duration;
import java.util.BitSet;
import java.util.function.UnaryOperator;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The running profiler: wires the pieces of the data path together and owns their threads.
 *
 * <pre>
 *  application threads ── SpanflightContextStorage ── SwitchRecorder ── ContextBridge (native:
 *                                                       OTEP-4947 record + ring; else Java ring)
 *                                                       (ContextRegistry ids)      │
 *  "spanflight-timeline":      every 10 ms drain rings ──────────────► Timelines ◄─┘
 *  "spanflight-export" thread: every 1 s  calibration event, prune timelines + registry, metrics
 *                              every interval: ProfileCollector.takeInterval()
 *                                              ─► ExportRequestEncoder ─► ProfileExporter (queue,
 *                                                 its own sender thread; or files)
 *  "spanflight-jfr" thread:    JfrSampleStream ─► SampleJoiner (Timelines.contextAt) ─► ProfileCollector
 * </pre>
 *
 * Every task on the background threads catches its own failures; nothing reaches application
 * threads.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class Spanflight {
  static final String VERSION = versionOfJar();
  /**
   * Samples are joined against history no older than this. JFR delivers events within about a
   * second (it flushes once a second); an older one finds its stretch pruned and is counted as
   * unknown-timeline, never joined to a wrong span.
   */
  static final long TIMELINE_HORIZON_NANOS = TimeUnit.SECONDS.toNanos(3);
  /** At 100 000 switches/s a thread fills 1 000 ring entries per drain: half the default ring. */
  static final long DRAIN_PERIOD_MILLIS = 10;
  /** JFR flushes once a second; at shutdown we wait at most this long for the last flush. */
  static final long SHUTDOWN_DELIVERY_WAIT_MILLIS = 2500;

  private static final Logger logger = Logger.getLogger("io.spanflight");

  private final SpanflightConfig config;
  private final ContextBridge bridge;
  private final ContextRegistry registry;
  private final ContextAttributes attributes;
  private final Resource resource;
  /** The key-map version last published in the process context. */
  private int publishedKeyMap = -1;
  private final Timelines timelines;
  private final ProfileCollector collector;
  private final SampleJoiner joiner;
  private final JfrSampleStream stream;
  private final ExportRequestEncoder encoder;
  private final ScheduledExecutorService scheduler;
  /** Drains the rings on its own thread, so encoding or pruning never delays a drain. */
  private final ScheduledExecutorService drainer;
  private final SelfMetrics metrics;
  private final ThrottledLogger taskFailures = new ThrottledLogger(logger, 1, TimeUnit.MINUTES);
  private volatile ProfileExporter exporter = ProfileExporter.NONE;
  /** Writes carriers' records at virtual-thread mounts; null without a native record. */
  private volatile CarrierRecordWriter carrierRecords;

  private Spanflight(SpanflightConfig config, Resource resource, LocalRoots localRoots) {
    this.config = config;
    this.resource = resource;
    this.bridge = ContextBridges.create(config.ringSize(), config.nativeDirectory(), !config.nativeEnabled());
    this.attributes =
        config.contextAttributes().isEmpty()
            ? ContextAttributes.NONE
            : new ContextAttributes(config.contextAttributes(), localRoots::localRootSpan, new AttributeKeyMap());
    this.registry =
        new ContextRegistry(
            bridge,
            config.linkLocalRoot() ? localRoots::localRootOf : UnaryOperator.identity(),
            attributes);
    this.timelines = new Timelines(bridge, config.maxSteps());
    this.collector = new ProfileCollector(config.linkUnsampled());
    this.joiner = new SampleJoiner(new JfrClock(), timelines, registry, collector, config.filters());
    // With the raw payload on, the stream keeps about one interval, which each request carries.
    Duration keep = config.rawPayload() ? config.exportInterval() : Duration.ofSeconds(30);
    this.stream = new JfrSampleStream(config.sources(), joiner, collector, keep);
    if (config.scopeEventThreshold() != null) {
      stream.recordScopeEvents(config.scopeEventThreshold());
    }
    this.encoder = new ExportRequestEncoder(resource, VERSION);
    this.metrics = new SelfMetrics(joiner, timelines, registry, () -> exporter);
    this.scheduler = daemonScheduler("spanflight-export");
    this.drainer = daemonScheduler("spanflight-timeline");
  }

  private static ScheduledExecutorService daemonScheduler(String name) {
    return Executors.newSingleThreadScheduledExecutor(
        r -> {
          Thread t = new Thread(r, name);
          t.setDaemon(true);
          return t;
        });
  }

  /**
   * Starts profiling. Cheap on the calling thread (the agent's startup): the exporter and the JFR
   * stream are created on the background thread.
   */
  static Spanflight start(SpanflightConfig config, Resource resource, LocalRoots localRoots) {
    Spanflight spanflight = new Spanflight(config, resource, localRoots);
    spanflight.publishProcessContext();
    SpanflightContextStorage.recordScopeEvents(config.scopeEventThreshold() != null);
    SwitchRecorder recorder = new SwitchRecorder(spanflight.registry, spanflight.bridge);
    SpanflightContextStorage.start(recorder);
    if (spanflight.bridge.hasThreadRecord()) {
      spanflight.carrierRecords = new CarrierRecordWriter(recorder, spanflight.bridge);
    }
    spanflight.scheduler.execute(spanflight.guarded("start", spanflight::startInBackground));
    Runtime.getRuntime().addShutdownHook(new Thread(spanflight::shutdown, "spanflight-shutdown"));
    return spanflight;
  }

  private void startInBackground() {
    String virtualThreads = hookVirtualThreadMounts();
    exporter = createExporter();
    stream.start();
    long interval = config.exportInterval().toMillis();
    drainer.scheduleWithFixedDelay(
        guarded("drain", timelines::drain), DRAIN_PERIOD_MILLIS, DRAIN_PERIOD_MILLIS, TimeUnit.MILLISECONDS);
    scheduler.scheduleWithFixedDelay(
        guarded("housekeeping", this::calibrateAndPrune), 0, 1, TimeUnit.SECONDS);
    scheduler.scheduleAtFixedRate(
        guarded("export", () -> exportInterval()), interval, interval, TimeUnit.MILLISECONDS);
    logger.info(
        "Spanflight "
            + VERSION
            + " started: timeline="
            + bridge.implementation()
            + ", "
            + virtualThreads
            + ", profiles to "
            + exporter.destination()
            + ", "
            + config.describe());
  }

  /**
   * Hooks virtual-thread mount/unmount so that carriers' records show the mounted thread's context
   * (in the background, off the agent's startup: until it is done, a carrier's record shows the
   * context of the last switch made on it, as without hooks). Returns the outcome for the startup
   * log line.
   */
  private String hookVirtualThreadMounts() {
    CarrierRecordWriter writer = carrierRecords;
    if (writer == null) {
      return "virtual-thread mount hooks off (no native record)";
    }
    long start = System.nanoTime();
    writer.prepare();
    String failure =
        VirtualThreadHooks.install(config.nativeDirectory(), writer.onMount(), writer.onUnmount());
    long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    return failure == null
        ? "virtual-thread mount hooks on (" + millis + " ms)"
        : "virtual-thread mount hooks off (" + failure + ")";
  }

  private ProfileExporter createExporter() {
    switch (config.exporter()) {
      case FILE:
        return new FileProfileExporter(config.fileDirectory(), config.fileFormats(), encoder.json());
      case NONE:
        return ProfileExporter.NONE;
      default:
        try {
          return OtlpProfileExporters.create(config.otlp());
        } catch (RuntimeException | LinkageError e) {
          logger.log(Level.SEVERE, "Spanflight cannot export profiles over OTLP: " + e.getMessage(), e);
          return ProfileExporter.NONE;
        }
    }
  }

  /** Publishes the resource and the record's attribute key map, again whenever a key was added. */
  private void publishProcessContext() {
    AttributeKeyMap keyMap = attributes.keyMap();
    int version = keyMap.version();
    if (version != publishedKeyMap) {
      publishedKeyMap = version;
      bridge.publishProcessContext(ProcessContextEncoder.encode(resource, keyMap.keys()));
    }
  }

  private void calibrateAndPrune() {
    publishProcessContext();
    CalibrationEvent.commitNow();
    timelines.drain();
    timelines.pruneBefore(System.nanoTime() - TIMELINE_HORIZON_NANOS);
    BitSet referenced = timelines.referencedIds();
    registry.prune(referenced::get);
    metrics.tick();
  }

  private CompletableResultCode exportInterval() {
    ProfileInterval interval = collector.takeInterval();
    if (interval.sampleCount() == 0) {
      return CompletableResultCode.ofSuccess(); // collectors drop requests without samples
    }
    long end = EpochClock.nowNanos();
    byte[] request = encoder.encode(interval, end, config.rawPayload() ? stream.dumpRecent() : null);
    CompletableResultCode result = exporter.export(request, interval, end);
    if (logger.isLoggable(Level.FINE)) {
      logger.fine(
          "Spanflight exported "
              + interval.sampleCount()
              + " samples ("
              + interval.linkedSampleCount()
              + " linked, "
              + request.length
              + " bytes); since start: "
              + joiner.summary()
              + ", timelines: "
              + timelines.threadCount()
              + " threads, "
              + timelines.stepCount()
              + " steps, registry: "
              + registry.size());
    }
    return result;
  }

  /**
   * Stops recording, lets the JFR stream deliver what was sampled up to now (it flushes once a
   * second), exports the last interval and waits for that export, all within a few seconds.
   */
  void shutdown() {
    try {
      SpanflightContextStorage.stop();
      VirtualThreadHooks.disconnect();
      drainer.shutdownNow();
      scheduler.shutdownNow();
      scheduler.awaitTermination(2, TimeUnit.SECONDS);
      joiner.awaitCalibrationCommittedNow(SHUTDOWN_DELIVERY_WAIT_MILLIS);
      stream.close();
      exportInterval(); // queued; the exporter's shutdown delivers it within its flush timeout
      long flushMillis = config.otlp() != null ? config.otlp().shutdownTimeout().toMillis() : 0;
      exporter.shutdown().join(flushMillis + 2000, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      logger.log(Level.WARNING, "Spanflight shutdown did not complete", e);
    }
  }

  /** For benchmarks and tests: the timelines, registry and join counters of this run. */
  Timelines timelines() {
    return timelines;
  }

  ContextRegistry registry() {
    return registry;
  }

  SampleJoiner joiner() {
    return joiner;
  }

  private Runnable guarded(String task, Runnable body) {
    return () -> {
      try {
        body.run();
      } catch (Throwable t) {
        taskFailures.log(Level.WARNING, "Spanflight background task '" + task + "' failed", t);
      }
    };
  }

  private static String versionOfJar() {
    String version = Spanflight.class.getPackage().getImplementationVersion();
    return version != null ? version : "dev";
  }
}
