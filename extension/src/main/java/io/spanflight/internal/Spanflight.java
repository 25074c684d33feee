package io.spanflight.internal;

import io.opentelemetry.sdk.resources.Resource;
import io.spanflight.internal.bridge.ContextBridge;
import io.spanflight.internal.bridge.ContextBridges;
import io.spanflight.internal.bridge.NativeContextBridge;
import io.spanflight.internal.capture.CarrierRecordWriter;
import io.spanflight.internal.capture.SpanflightContextStorage;
import io.spanflight.internal.capture.SwitchRecorder;
import io.spanflight.internal.config.SpanflightConfig;
import io.spanflight.internal.control.ProfilerControl;
import io.spanflight.internal.control.SpanflightControl;
import io.spanflight.internal.correlate.Timelines;
import io.spanflight.internal.costs.SpanCostLink;
import io.spanflight.internal.costs.SpanCostTable;
import io.spanflight.internal.export.ProfileExporter;
import io.spanflight.internal.instrumentation.MethodHooks;
import io.spanflight.internal.instrumentation.VirtualThreadHooks;
import io.spanflight.internal.jfr.CalibrationEvent;
import io.spanflight.internal.jfr.JfrClock;
import io.spanflight.internal.jfr.SampleJoiner;
import io.spanflight.internal.logging.ThrottledLogger;
import io.spanflight.internal.profile.ExportRequestEncoder;
import io.spanflight.internal.profile.ProcessContextEncoder;
import io.spanflight.internal.profile.ProfileCollector;
import io.spanflight.internal.registry.AttributeKeyMap;
import io.spanflight.internal.registry.ContextAttributes;
import io.spanflight.internal.registry.ContextRegistry;
import io.spanflight.internal.registry.LocalRoots;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The profiler: the pieces of the data path that live as long as the JVM, and the switch that
 * turns profiling on and off at run time.
 *
 * <pre>
 *  application threads ── SpanflightContextStorage ── SwitchRecorder ── ContextBridge (native:
 *                           (only while on)            (ContextRegistry ids)   OTEP-4947 record + ring;
 *                                                                             else Java ring)
 *  while on, a {@link SpanflightRun}: drains rings into Timelines, runs our JFR stream into
 *  SampleJoiner (Timelines.contextAt) ─► ProfileCollector, and exports each interval.
 *  With otel.spanflight.span.costs, the join also adds each event of a sampled span to a
 *  SpanCostTable, which the agent's wrapped span exporter (costs.CostSpanExporter) empties.
 * </pre>
 *
 * <p>Switching off ({@link #switchOff}, also from the control MBean and at JVM shutdown) stops
 * recording switches, ends the run (last interval exported, our JFR stream closed, our threads
 * ended), drains the rings once more so that the native rings of exited threads are freed, and
 * forgets the timelines (switches made while off are not seen; until its next switch after
 * switching on, a thread counts as having no span). While off, a thread that ends frees its own
 * ring as it ends ({@link ContextBridge#switchedOff}), so memory stays flat with no thread of ours
 * running. Switching on starts a new run.
 * The bridge, the registry and the counters stay: the native state is per process.
 *
 * <p>Every task on the background threads catches its own failures; nothing reaches application
 * threads.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class Spanflight implements ProfilerControl {
  static final String VERSION = versionOfJar();
  /**
   * Timelines keep this much history behind the newest event the JFR stream has delivered (its
   * watermark): a sample that starts that long before the watermark (a duration event committed
   * late) finds its stretch pruned and is counted as unknown-timeline, never joined to a wrong span.
   */
  static final long TIMELINE_HORIZON_NANOS = TimeUnit.SECONDS.toNanos(3);
  /** JFR flushes once a second; at shutdown we wait at most this long for the last flush. */
  static final long SHUTDOWN_DELIVERY_WAIT_MILLIS = 2500;

  private static final Logger logger = Logger.getLogger("io.spanflight");

  private final SpanflightConfig config;
  private final Resource resource;
  private final ContextBridge bridge;
  private final ContextAttributes attributes;
  private final ContextRegistry registry;
  private final Timelines timelines;
  private final ProfileCollector collector;
  private final SampleJoiner joiner;
  private final ExportRequestEncoder encoder;
  private final SwitchRecorder recorder;
  private final SelfMetrics metrics;
  /** Per-span costs while {@code otel.spanflight.span.costs} is on, else null. */
  private final SpanCostTable spanCosts;
  private final ThrottledLogger taskFailures = new ThrottledLogger(logger, 1, TimeUnit.MINUTES);
  /** Writes carriers' records at virtual-thread mounts; null without a native record. */
  private final CarrierRecordWriter carrierRecords;
  private final BenchmarkArm arm = BenchmarkArm.fromSystemProperty();
  private final MethodSources methodSources;
  /** The outcome of hooking virtual-thread mounts, once tried (they stay for the JVM's life). */
  private String virtualThreadHooks; // guarded by this
  /** The key-map version last published in the process context (housekeeping thread). */
  private int publishedKeyMap = -1;
  /** Null while off; written under this lock, read without it where waiting is not allowed. */
  private volatile SpanflightRun run;
  private boolean shutDown; // guarded by this
  private long starts; // guarded by this
  private long stops; // guarded by this

  private Spanflight(SpanflightConfig config, Resource resource, LocalRoots localRoots, SpanCostLink costLink) {
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
    this.encoder = new ExportRequestEncoder(resource, VERSION);
    this.recorder = new SwitchRecorder(registry, bridge);
    this.metrics = new SelfMetrics(joiner, timelines, registry, this::exporter);
    this.carrierRecords = bridge.hasThreadRecord() ? new CarrierRecordWriter(recorder, bridge) : null;
    this.spanCosts = config.spanCosts() ? new SpanCostTable(config.spanCostsMaxSpans()) : null;
    if (spanCosts != null) {
      // not running(): the exporter's thread asks often and must not wait for a switch-off
      costLink.connect(
          spanCosts, joiner::watermarkNanos, () -> run != null, CalibrationEvent::commitNow, joiner::recordCosts);
    }
    this.methodSources = new MethodSources(this, config);
  }

  /**
   * Starts profiling. Cheap on the calling thread (the agent's startup): the exporter and the JFR
   * stream are created on a background thread.
   */
  static Spanflight start(SpanflightConfig config, Resource resource, LocalRoots localRoots) {
    return start(config, resource, localRoots, new SpanCostLink());
  }

  /** As {@link #start(SpanflightConfig, Resource, LocalRoots)}, connecting span costs to {@code costLink}. */
  static Spanflight start(SpanflightConfig config, Resource resource, LocalRoots localRoots, SpanCostLink costLink) {
    Spanflight spanflight = new Spanflight(config, resource, localRoots, costLink);
    spanflight.publishProcessContext();
    SpanflightContextStorage.recordScopeEvents(config.scopeEventThreshold() != null);
    spanflight.switchOn();
    Runtime.getRuntime().addShutdownHook(new Thread(spanflight::shutdown, "spanflight-shutdown"));
    if (config.jmxEnabled()) {
      // Not on the agent's startup thread: the platform MBean server is created on first use.
      Thread registration = new Thread(() -> SpanflightControl.register(spanflight), "spanflight-jmx");
      registration.setDaemon(true);
      registration.start();
    }
    return spanflight;
  }

  @Override
  public synchronized boolean switchOn() {
    if (run != null || shutDown) {
      return false;
    }
    collector.takeInterval(); // the next interval starts now, not when profiling was last on
    bridge.switchedOff(false); // before the run's first drain
    run = new SpanflightRun(this);
    if (arm.capture) {
      SpanflightContextStorage.start(recorder);
      if (carrierRecords != null) {
        carrierRecords.start();
      }
    }
    run.start();
    starts++;
    if (starts > 1) {
      logger.info("Spanflight switched on");
    }
    return true;
  }

  @Override
  public synchronized boolean switchOff() {
    SpanflightRun ending = run;
    if (ending == null) {
      return false;
    }
    run = null;
    stops++;
    try {
      SpanflightContextStorage.stop();
      if (carrierRecords != null) {
        carrierRecords.stop();
      }
      ending.stop();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      logger.log(Level.WARNING, "Spanflight did not stop cleanly", e);
    }
    // Once more after the drainer ended: frees the native rings of threads that exited.
    timelines.drain();
    timelines.forgetAll(); // the registry is pruned against the empty timelines by the next run
    bridge.clearRecords(); // readers outside the JVM see no context while off
    bridge.switchedOff(true); // from now on, a thread that ends frees its ring itself
    if (!shutDown) {
      logger.info("Spanflight switched off: " + joiner.summary());
    }
    return true;
  }

  /** Which parts run: all of them, except in the overhead benchmark's arms. */
  BenchmarkArm arm() {
    return arm;
  }

  /** At JVM shutdown (and for tests): switches off for good. */
  void shutdown() {
    synchronized (this) {
      shutDown = true;
    }
    VirtualThreadHooks.disconnect();
    switchOff();
    MethodHooks.disconnect();
  }

  /**
   * Hooks virtual-thread mount/unmount (once per JVM; they stay while profiling is off) so that
   * carriers' records show the mounted thread's context. Runs in the background, off the agent's
   * startup: until it is done, a carrier's record shows the context of the last switch made on
   * it, as without hooks. Returns the outcome for the startup log line.
   */
  synchronized String hookVirtualThreadMountsOnce() {
    if (virtualThreadHooks == null) {
      if (carrierRecords == null) {
        virtualThreadHooks = "virtual-thread mount hooks off (no native record)";
      } else {
        long start = System.nanoTime();
        carrierRecords.prepare();
        String failure = VirtualThreadHooks.install(
            config.nativeDirectory(), carrierRecords.onMount(), carrierRecords.onUnmount());
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        virtualThreadHooks = failure == null
            ? "virtual-thread mount hooks on (" + millis + " ms)"
            : "virtual-thread mount hooks off (" + failure + ")";
      }
    }
    return virtualThreadHooks;
  }

  /** Publishes the resource and the record's attribute key map, again whenever a key was added. */
  void publishProcessContext() {
    AttributeKeyMap keyMap = attributes.keyMap();
    int version = keyMap.version();
    if (version != publishedKeyMap) {
      publishedKeyMap = version;
      bridge.publishProcessContext(ProcessContextEncoder.encode(resource, keyMap.keys()));
    }
  }

  /**
   * The running exporter, or the none exporter while off. Does not wait for the lock: metric
   * callbacks call it while a switch-off (at shutdown, several seconds) holds it.
   */
  private ProfileExporter exporter() {
    SpanflightRun current = run;
    return current == null ? ProfileExporter.NONE : current.exporter();
  }

  @Override
  public synchronized boolean running() {
    return run != null;
  }

  @Override
  public long counter(Counter counter) {
    switch (counter) {
      case SAMPLES:
        return joiner.samples();
      case LINKED_SAMPLES:
        return joiner.linked();
      case UNKNOWN_TIMELINE_SAMPLES:
        return joiner.unknownTimeline();
      case FILTERED_SAMPLES:
        return joiner.filtered();
      case DROPPED_SAMPLES:
        return joiner.dropped();
      case EVENTS_BELOW_OUR_THRESHOLD:
        return joiner.belowThreshold();
      case LOST_SWITCHES:
        return timelines.lostEntries();
      case CONTEXTS:
        return registry.size();
      case TIMELINE_THREADS:
        return timelines.threadCount();
      case NATIVE_RINGS:
        return bridge instanceof NativeContextBridge ? ((NativeContextBridge) bridge).ringCount() : -1;
      case STARTS:
        synchronized (this) {
          return starts;
        }
      case STOPS:
        synchronized (this) {
          return stops;
        }
      default:
        throw new IllegalArgumentException(counter.name());
    }
  }

  @Override
  public List<String> settingsInForce() {
    SpanflightRun current;
    synchronized (this) {
      current = run;
    }
    return current == null ? List.of() : current.settingsInForce();
  }

  @Override
  public String methodFilter(String source) {
    return methodSources.filter(source);
  }

  /**
   * Sets a method filter at run time: before JDK 25 its methods are retransformed at once; on JDK
   * 25 a running profiler starts a new run (a new JFR stream) with it.
   */
  @Override
  public synchronized void changeMethodFilter(String source, String filter) {
    if (methodSources.change(source, filter) && run != null) {
      switchOff();
      switchOn();
    }
  }

  @Override
  public String configuration() {
    return config.describe();
  }

  SpanflightConfig config() {
    return config;
  }

  ContextBridge bridge() {
    return bridge;
  }

  ProfileCollector collector() {
    return collector;
  }

  ExportRequestEncoder encoder() {
    return encoder;
  }

  SelfMetrics metrics() {
    return metrics;
  }

  /** The per-span cost table, or null when span costs are off. */
  SpanCostTable spanCosts() {
    return spanCosts;
  }

  /** For benchmarks and tests: the timelines, registry and join counters of this run. */
  Timelines timelines() {
    return timelines;
  }

  MethodSources methodSources() {
    return methodSources;
  }

  ContextRegistry registry() {
    return registry;
  }

  SampleJoiner joiner() {
    return joiner;
  }

  Runnable guarded(String task, Runnable body) {
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
