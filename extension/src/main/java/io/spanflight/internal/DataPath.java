package io.spanflight.internal;

import io.opentelemetry.sdk.resources.Resource;
import io.spanflight.internal.bridge.ContextBridge;
import io.spanflight.internal.bridge.ContextBridges;
import io.spanflight.internal.bridge.NativeContextBridge;
import io.spanflight.internal.capture.CarrierRecordWriter;
import io.spanflight.internal.capture.MountHooks;
import io.spanflight.internal.capture.SwitchRecorder;
import io.spanflight.internal.config.InferredSpanSettings;
import io.spanflight.internal.config.Redacted;
import io.spanflight.internal.config.SourceSettings;
import io.spanflight.internal.config.SpanflightConfig;
import io.spanflight.internal.control.ProfilerControl;
import io.spanflight.internal.correlate.Timelines;
import io.spanflight.internal.costs.InferredEvents;
import io.spanflight.internal.costs.SpanCostLink;
import io.spanflight.internal.costs.SpanCostTable;
import io.spanflight.internal.export.FileProfileExporter;
import io.spanflight.internal.export.OtlpProfileExporters;
import io.spanflight.internal.export.ProfileExporter;
import io.spanflight.internal.jfr.BlindSources;
import io.spanflight.internal.jfr.JfrSampleStream;
import io.spanflight.internal.jfr.MethodSources;
import io.spanflight.internal.jfr.clock.CalibrationEvent;
import io.spanflight.internal.jfr.clock.JfrClock;
import io.spanflight.internal.jfr.join.JfrReaders;
import io.spanflight.internal.jfr.join.SampleJoiner;
import io.spanflight.internal.logging.ThrottledLogger;
import io.spanflight.internal.profile.ExportRequestEncoder;
import io.spanflight.internal.profile.ProfileCollector;
import io.spanflight.internal.registry.AttributeKeyMap;
import io.spanflight.internal.registry.ContextAttributes;
import io.spanflight.internal.registry.ContextRegistry;
import io.spanflight.internal.registry.LocalRoots;
import io.spanflight.internal.selfmetrics.SelfMetrics;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.logging.Logger;

/**
 * What Spanflight is made of: the parts {@link #wire} builds from the settings, each from the ones
 * before it. They live as long as the JVM; each run builds its own JFR stream and exporter from
 * the same settings ({@link #newStream}, {@link #newExporter}).
 *
 * <pre>
 *  capture:   ContextBridge (native: OTEP-4947 record + rings; else Java rings) ◄─ SwitchRecorder
 *             CarrierRecordWriter + MountHooks (virtual-thread mounts; with a native record only)
 *  registry:  ContextAttributes ─► ContextRegistry (ids for span contexts)
 *  correlate: Timelines (the rings drained per Java thread)
 *  jfr:       SampleJoiner (events, clock map) ─► correlate.TimelineJoin (Timelines.contextAt,
 *             filters) ─► ProfileCollector
 *  profile:   ProfileCollector (one interval) ─► ExportRequestEncoder ─► a run's exporter
 *  beside:    SpanCostTable, MethodSources, ProcessContextPublisher, SelfMetrics, BlindSources
 * </pre>
 *
 * <p>With otel.spanflight.span.costs, the join also adds each event of a sampled span to the
 * SpanCostTable, which the agent's wrapped span exporter (costs.CostSpanExporter) empties. The
 * parts' counters are read for the control view through {@link #count}. Which parts run is the
 * {@link DiagnosticMode}: all of them unless otel.spanflight.diagnostic.mode says otherwise.
 *
 * <p>Not API: internal to Spanflight.
 */
record DataPath(
    AtomicReference<SpanflightConfig> configInForce,
    DiagnosticMode mode,
    ContextBridge bridge,
    SwitchRecorder recorder,
    CarrierRecordWriter carrierRecords, // null without a native record
    MountHooks mountHooks,
    ContextRegistry registry,
    Timelines timelines,
    SampleJoiner joiner,
    ProfileCollector collector,
    ExportRequestEncoder encoder,
    SpanCostTable spanCosts, // null while otel.spanflight.span.costs is off
    MethodSources methodSources,
    ProcessContextPublisher processContext,
    SelfMetrics metrics,
    BlindSources blindSources,
    ThrottledLogger taskFailures) {
  static final String VERSION = versionOfJar();
  private static final Logger logger = Logger.getLogger("io.spanflight");

  /**
   * Builds the parts (and loads the native library, unless switched off); starts no thread.
   *
   * @param running whether profiling is on, without waiting for the switch's lock
   * @param exporter the running exporter, or the none exporter while off, without waiting either
   */
  static DataPath wire(
      SpanflightConfig config,
      Resource resource,
      LocalRoots localRoots,
      SpanCostLink costLink,
      BooleanSupplier running,
      Supplier<ProfileExporter> exporter) {
    ThrottledLogger taskFailures = new ThrottledLogger(logger, 1, TimeUnit.MINUTES);
    DiagnosticMode mode = DiagnosticMode.of(config);
    ContextBridge bridge = ContextBridges.create(config.ringSize(), config.nativeDirectory(), !config.nativeEnabled());
    ContextAttributes attributes =
        config.contextAttributes().isEmpty()
            ? ContextAttributes.NONE
            : new ContextAttributes(config.contextAttributes(), localRoots::localRoot, new AttributeKeyMap());
    ContextRegistry registry =
        ContextRegistry.builder(bridge).attributes(attributes).liveSpans(localRoots, config.linkLocalRoot()).build();
    Timelines timelines = new Timelines(bridge, config.maxSteps());
    ProfileCollector collector = new ProfileCollector(config.linkUnsampled());
    SampleJoiner joiner = new SampleJoiner(new JfrClock(), timelines, registry, collector, config.filters(),
        new JfrReaders(JfrReaders.Choice.of(config.jfrReader())));
    ExportRequestEncoder encoder = new ExportRequestEncoder(resource, VERSION);
    SwitchRecorder recorder = new SwitchRecorder(registry, bridge);
    BlindSources blindSources = new BlindSources(joiner);
    SelfMetrics metrics = new SelfMetrics(joiner, timelines, registry, exporter, blindSources);
    CarrierRecordWriter carrierRecords = bridge.hasThreadRecord() ? new CarrierRecordWriter(recorder, bridge) : null;
    SpanCostTable spanCosts = config.spanCosts() ? new SpanCostTable(config.spanCostsMaxSpans(), inferred(config)) : null;
    MethodSources methods = new MethodSources(config, timelines, registry, collector);
    if (spanCosts != null) {
      // a span is complete once JFR's stream and the JDK 17/21 method hooks' drain both passed its end
      LongSupplier watermark = () -> Math.min(joiner.watermarkNanos(), methods.tracedUpTo());
      costLink.connect(spanCosts, watermark, running, CalibrationEvent::commitNow, table -> {
        joiner.recordCosts(table);
        methods.recordInferred(table.inferred());
      });
    }
    return new DataPath(
        new AtomicReference<>(config), mode, bridge, recorder, carrierRecords, new MountHooks(carrierRecords, config.nativeDirectory()),
        registry, timelines, joiner, collector, encoder, spanCosts,
        methods,
        new ProcessContextPublisher(resource, attributes, bridge), metrics, blindSources, taskFailures);
  }

  /** Where joined waits and traced calls wait to become child spans; null when none do. */
  private static InferredEvents inferred(SpanflightConfig config) {
    InferredSpanSettings s = config.inferred();
    return s.any() ? new InferredEvents(s) : null;
  }

  /**
   * The settings in force: those read at start, until {@link #putInForce} replaces them. A run reads
   * them once, as it starts.
   */
  SpanflightConfig config() {
    return configInForce.get();
  }

  /**
   * Puts {@code next}'s run-time settings in force for the next run (sources, context filters,
   * method filters, the export interval); called while profiling is off. Everything read only at
   * start (the bridge, the exporter's settings, the diagnostic mode) stays as it was wired.
   */
  void putInForce(SpanflightConfig next) {
    configInForce.set(next);
    joiner.filters(next.filters());
    for (SourceSettings source : next.sources()) {
      String name = source.name();
      boolean method = name.equals(SourceSettings.METHOD_TIMING) || name.equals(SourceSettings.METHOD_TRACE);
      String filter = source.enabled() ? source.value() : "";
      if (method && !filter.equals(methodSources.filter(name))) {
        methodSources.change(name, filter);
      }
    }
  }

  /** A run's JFR stream, with the method filters in force now (the control MBean may change them). */
  JfrSampleStream newStream() {
    SpanflightConfig config = config();
    // With the raw payload on, the stream keeps about one interval, which each request carries.
    Duration keep = config.rawPayload() ? config.exportInterval() : Duration.ofSeconds(30);
    JfrSampleStream stream =
        new JfrSampleStream(methodSources.streamSources(config.sources()), joiner, collector, keep, config.capAtDefaultJfc());
    if (config.scopeEventThreshold() != null) {
      stream.recordScopeEvents(config.scopeEventThreshold());
    }
    return stream;
  }

  /** A run's exporter; the none exporter (and one log line) when the OTLP one cannot be built. */
  ProfileExporter newExporter() {
    SpanflightConfig config = config();
    switch (config.exporter()) {
      case FILE:
        return new FileProfileExporter(config.fileDirectory(), config.fileFormats(), encoder.json());
      case NONE:
        return ProfileExporter.NONE;
      default:
        try {
          return OtlpProfileExporters.create(config.otlp());
        } catch (RuntimeException | LinkageError e) {
          // no stack trace: the sender's message may quote the endpoint, so it is scrubbed
          logger.severe(
              "Spanflight cannot export profiles over OTLP: "
                  + Redacted.scrub(e.getClass().getName() + ": " + e.getMessage(), config.otlp().secrets()));
          return ProfileExporter.NONE;
        }
    }
  }

  /** The data path's counts for the control view; the switch counts its starts and stops itself. */
  long count(ProfilerControl.Counter counter) {
    switch (counter) {
      case SAMPLES:
        return joiner.counts().samples();
      case LINKED_SAMPLES:
        return joiner.counts().linked();
      case UNKNOWN_TIMELINE_SAMPLES:
        return joiner.counts().unknownTimeline();
      case FILTERED_SAMPLES:
        return joiner.counts().filtered();
      case DROPPED_SAMPLES:
        return joiner.counts().dropped();
      case EVENTS_BELOW_OUR_THRESHOLD:
        return joiner.counts().belowThreshold();
      case OWN_THREAD_WAITS:
        return joiner.counts().ownThreadWaits();
      case LOST_SWITCHES:
        return timelines.lostEntries();
      case CONTEXTS:
        return registry.size();
      case TIMELINE_THREADS:
        return timelines.threadCount();
      case BLIND_SOURCES:
        return blindSources.blindings();
      case LOST_SAMPLES:
        return blindSources.lostSamples(SourceSettings.CPU_TIME);
      case NATIVE_RINGS:
        return bridge instanceof NativeContextBridge ? ((NativeContextBridge) bridge).ringCount() : -1;
      case READER_FALLBACKS:
        return joiner.readers().fallbacks();
      default:
        throw new IllegalArgumentException(counter.name());
    }
  }

  /** The version the build wrote into {@code version.txt}; "dev" where it is missing (classes run from an IDE). */
  private static String versionOfJar() {
    try (InputStream in = DataPath.class.getResourceAsStream("version.txt")) {
      String version = in == null ? "" : new String(in.readNBytes(64), StandardCharsets.UTF_8).strip();
      return version.isEmpty() || version.startsWith("$") ? "dev" : version;
    } catch (IOException e) {
      return "dev";
    }
  }
}
