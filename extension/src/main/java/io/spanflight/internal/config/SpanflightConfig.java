package io.spanflight.internal.config;

import io.opentelemetry.sdk.autoconfigure.spi.ConfigProperties;
import io.spanflight.internal.filter.SampleFilters;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.logging.Logger;

/**
 * Every Spanflight setting, read once at startup ({@link #read}, by {@link ConfigReader}; the
 * agent's customizers share that one read, see {@code SdkBuildSettings}). Each key works as a
 * system property and as the matching {@code OTEL_*} environment variable (the agent's {@link
 * ConfigProperties} does that). A bad value is collected in {@link #errors()} instead of
 * thrown: the caller logs each one and switches off what it concerns. Every key concerns the whole
 * pipeline, so its error switches Spanflight off while the application keeps running, except the
 * {@code otel.spanflight.span.costs*} keys: their error ({@link #spanCostErrors()}) switches only
 * span costs off; and {@code otel.spanflight.jfr.reader} and {@code otel.spanflight.diagnostic.mode}:
 * their error ({@link #defaulted()}) leaves their default in force (the reader that reads as well as
 * any choice; all of Spanflight).
 *
 * <p>Not API: internal to Spanflight.
 *
 * @param errors one message per bad setting, each naming the key, the value and the expected form
 * @param spanCostErrors one message per bad {@code otel.spanflight.span.costs*} setting; they switch
 *     span costs off only
 * @param defaulted one message per bad setting whose default is used instead (each says which);
 *     they switch nothing off
 * @param fileFormats what {@code file} writes per interval: never empty
 * @param sources every JFR source, enabled or not, in catalogue order
 * @param filters the context filters: which samples are kept, per source
 * @param maxSteps the most context switches all timelines together hold; beyond it, stretches turn
 *     unknown
 * @param methodHooksMax the most methods the method hooks (JDK 17 and 21) instrument
 * @param nativeEnabled false forces the pure-Java bridge (no native thread-context record)
 * @param linkLocalRoot the Grafana/Pyroscope mode: samples link to the local-root span, which
 *     carries {@code pyroscope.profile.id}
 * @param rawPayload true attaches the interval's raw JFR data to each request as {@code
 *     original_payload}
 * @param contextAttributes span attribute keys copied from each context's local-root span (may be
 *     empty)
 * @param linkUnsampled whether samples of spans that were not sampled link to them (they are kept
 *     either way)
 * @param scopeEventThreshold the shortest span scope recorded as a JFR {@code io.spanflight.SpanScope}
 *     event, or null when those events are off
 * @param nativeDirectory the root under which a fresh private directory ({@link
 *     io.spanflight.internal.bridge.PrivateDirectory}) receives the native library and the
 *     boot-class-path jars; null means {@code java.io.tmpdir}. Checked when used, not here.
 * @param otlp null unless the exporter is {@code otlp}
 * @param capAtDefaultJfc true when no JFR setting of ours may be denser than the JDK's default.jfc
 *     ({@code otel.spanflight.jfr.cap=default})
 * @param jmxEnabled true registers the control MBean (switch on/off, counters, settings in force)
 * @param backgroundC2 true lets C2 compile the code of Spanflight's own threads; false (default):
 *     C1 only ({@link io.spanflight.internal.threads.BackgroundCompilation})
 * @param spanCosts true puts {@code spanflight.cost.*} attributes on exported spans and counts
 *     costs per route
 * @param spanCostsMaxSpans the most spans held for their costs, and the most spans whose costs are
 *     tracked
 * @param spanCostsMaxRoutes distinct {@code http.route} values in the cost metrics; beyond, {@code
 *     other}
 * @param spanCostsWait how long a span waits at most for the JFR stream to pass its end
 * @param inferred which joined waits and traced calls become child spans (with span costs only)
 * @param jfrReader which reader reads the JFR recording ({@code otel.spanflight.jfr.reader}):
 *     {@code auto}, {@code spanflight} or {@code jdk}
 * @param diagnosticMode which parts of Spanflight run ({@code otel.spanflight.diagnostic.mode}):
 *     one of {@link #DIAGNOSTIC_MODES}
 * @param opamp fleet control over OpAMP; {@link OpampSettings#active()} false while it is off (its
 *     errors, if any, switch off fleet control only)
 */
public record SpanflightConfig(
    List<String> errors,
    List<String> spanCostErrors,
    List<String> defaulted,
    boolean enabled,
    Exporter exporter,
    Duration exportInterval,
    Path fileDirectory,
    Set<FileFormat> fileFormats,
    List<SourceSettings> sources,
    SampleFilters filters,
    int ringSize,
    int maxSteps,
    int methodHooksMax,
    boolean nativeEnabled,
    boolean linkLocalRoot,
    boolean rawPayload,
    List<String> contextAttributes,
    boolean linkUnsampled,
    Duration scopeEventThreshold,
    Path nativeDirectory,
    OtlpSettings otlp,
    boolean capAtDefaultJfc,
    boolean jmxEnabled,
    boolean backgroundC2,
    boolean spanCosts,
    int spanCostsMaxSpans,
    int spanCostsMaxRoutes,
    Duration spanCostsWait,
    InferredSpanSettings inferred,
    String jfrReader,
    String diagnosticMode,
    OpampSettings opamp) {
  private static final Logger logger = Logger.getLogger("io.spanflight");
  public static final String ENABLED = "otel.spanflight.enabled";
  public static final String EXPORTER = "otel.spanflight.exporter";
  public static final String EXPORT_INTERVAL = "otel.spanflight.export.interval";
  public static final String FILE_DIRECTORY = "otel.spanflight.file.directory";
  public static final String FILE_FORMAT = "otel.spanflight.file.format";
  public static final String RING_SIZE = "otel.spanflight.timeline.ring.size";
  public static final String NATIVE_ENABLED = "otel.spanflight.native.enabled";
  public static final String LINK_LOCAL_ROOT = "otel.spanflight.link.local.root";
  public static final String RAW_PAYLOAD = "otel.spanflight.raw.payload";
  public static final String NATIVE_DIRECTORY = "otel.spanflight.native.directory";
  public static final String CONTEXT_ATTRIBUTES = "otel.spanflight.context.attributes";
  public static final String DEFAULT_CONTEXT_ATTRIBUTES = "http.route,http.request.method";
  /** Span attribute keys a context may copy; the record's key map holds 256 keys in all. */
  public static final int MAX_CONTEXT_ATTRIBUTES = 32;
  public static final String LINK_UNSAMPLED = "otel.spanflight.link.unsampled";
  public static final String SCOPE_EVENTS = "otel.spanflight.scope.events";
  public static final String BACKGROUND_C2 = "otel.spanflight.jit.background.c2";
  public static final String SCOPE_EVENTS_THRESHOLD = "otel.spanflight.scope.events.threshold";
  public static final Duration DEFAULT_SCOPE_EVENTS_THRESHOLD = Duration.ofMillis(10);
  /** {@code none} or {@code default}: no JFR setting denser than the JDK's default.jfc. */
  public static final String JFR_CAP = "otel.spanflight.jfr.cap";
  /**
   * {@code auto} (Spanflight's chunk reader, the JDK's event stream once it cannot read a chunk),
   * {@code spanflight} or {@code jdk}: see {@link io.spanflight.internal.jfr.join.JfrReaders}.
   */
  public static final String JFR_READER = "otel.spanflight.jfr.reader";
  /**
   * {@code full} (the default) or one part of Spanflight alone, to measure what it costs: one of
   * {@link #DIAGNOSTIC_MODES}. Anything but {@code full} produces no profiles.
   */
  public static final String DIAGNOSTIC_MODE = "otel.spanflight.diagnostic.mode";
  public static final String DEFAULT_DIAGNOSTIC_MODE = "full";
  /**
   * The values of {@value #DIAGNOSTIC_MODE}, the default first, as they are written: the one list
   * of them, which the wiring's {@code DiagnosticMode} maps onto its constants.
   */
  public static final List<String> DIAGNOSTIC_MODES =
      List.of(DEFAULT_DIAGNOSTIC_MODE, "jfr-only", "capture-only", "stream-only", "reader-only");
  /** Registers the control MBean {@code io.spanflight:type=Spanflight}. */
  public static final String JMX_ENABLED = "otel.spanflight.jmx.enabled";

  /** Cost attributes on exported spans and per-route cost metrics. */
  public static final String SPAN_COSTS = "otel.spanflight.span.costs";
  public static final String SPAN_COSTS_MAX_SPANS = "otel.spanflight.span.costs.max.spans";
  public static final int DEFAULT_SPAN_COSTS_MAX_SPANS = 10_000;
  public static final String SPAN_COSTS_MAX_ROUTES = "otel.spanflight.span.costs.max.routes";
  public static final int DEFAULT_SPAN_COSTS_MAX_ROUTES = 100;
  public static final String SPAN_COSTS_WAIT = "otel.spanflight.span.costs.wait";
  public static final Duration DEFAULT_SPAN_COSTS_WAIT = Duration.ofSeconds(5);
  /** The most methods the method hooks of JDK 17 and 21 instrument (JDK 25 uses JFR's events). */
  public static final String METHOD_HOOKS_MAX = "otel.spanflight.method.hooks.max";
  public static final int DEFAULT_METHOD_HOOKS_MAX = 1000;

  public static final Duration DEFAULT_EXPORT_INTERVAL = Duration.ofSeconds(10);
  public static final String DEFAULT_FILE_DIRECTORY = "spanflight-profiles";
  public static final int DEFAULT_RING_SIZE = 4096;
  public static final String MAX_STEPS = "otel.spanflight.timeline.max.steps";
  /**
   * 24 MB of steps at 8 bytes each (the bound 2 000 000 steps of 12 bytes gave before): at 400 000
   * switches a second, 7.5 s of history, so that a stream that stalls for a second or two (seen in
   * the memory harness) does not push a busy service over the cap.
   */
  public static final int DEFAULT_MAX_STEPS = 3_000_000;
  public static final Duration DEFAULT_OTLP_TIMEOUT = Duration.ofSeconds(10);

  /** Where profiles go. */
  public enum Exporter {
    OTLP,
    FILE,
    NONE
  }

  /** What {@code file} writes per interval. */
  public enum FileFormat {
    /** Binary OTLP, {@code .binpb}. */
    OTLP,
    /** OTLP/JSON, {@code .json}. */
    JSON,
    /** Gzipped Google pprof, one {@code .pb.gz} per sample type. */
    PPROF
  }

  public static SpanflightConfig read(ConfigProperties properties) {
    return new ConfigReader(properties).read();
  }

  /**
   * Logs each error as one severe line, which says that Spanflight is off because of it; the
   * application runs on without Spanflight. Each span-cost error is one warning line saying that
   * span costs are off and the rest runs; each defaulted setting one warning line saying that its
   * default is used. Values that may hold secrets were never put in them.
   */
  public void logErrors() {
    for (String error : errors) {
      logger.severe("Spanflight is off (the application runs without it): " + error);
    }
    for (String error : spanCostErrors) {
      logger.warning("Spanflight span costs are off (the rest of Spanflight runs): " + error);
    }
    for (String error : opamp.errors()) {
      logger.warning("Spanflight fleet control (OpAMP) is off (the rest of Spanflight runs): " + error);
    }
    for (String error : defaulted) {
      logger.warning("Spanflight ignores a setting (the rest of Spanflight runs as set): " + error);
    }
  }

  /** True when Spanflight should run: enabled and every setting valid. */
  public boolean active() {
    return enabled && errors.isEmpty();
  }

  /** The secrets the settings hold (see {@link OtlpSettings#secrets()}); empty without OTLP. */
  public List<String> secrets() {
    List<String> secrets = new java.util.ArrayList<>(opamp.secrets());
    if (otlp != null) {
      secrets.addAll(otlp.secrets());
    }
    return secrets;
  }

  /** A one-line summary for the startup log. */
  public String describe() {
    Map<String, Object> shown = new LinkedHashMap<>();
    shown.put("exporter", exporter.name().toLowerCase(java.util.Locale.ROOT));
    if (otlp != null) {
      shown.put("endpoint", Redacted.endpoint(otlp.endpoint()));
      if (!otlp.headers().isEmpty()) {
        shown.put("headers", Redacted.headers(otlp.headers()));
      }
    }
    if (exporter == Exporter.FILE) {
      shown.put("directory", fileDirectory.toAbsolutePath());
      shown.put("formats", fileFormats.toString().toLowerCase(java.util.Locale.ROOT));
    }
    shown.put("interval", exportInterval);
    shown.put("sources", sources);
    if (capAtDefaultJfc) {
      shown.put("jfr.cap", "default");
    }
    if (!"auto".equals(jfrReader)) {
      shown.put("jfr.reader", jfrReader);
    }
    if (spanCosts) {
      shown.put("span.costs", "on");
      shown.put("span.inferred", inferred);
    }
    if (!DEFAULT_DIAGNOSTIC_MODE.equals(diagnosticMode)) {
      shown.put("diagnostic.mode", diagnosticMode);
    }
    if (opamp.active()) {
      shown.put("opamp", opamp);
    }
    return shown.toString();
  }

  /**
   * Whether the JDK's CPU-time sampler can run in this JVM (JDK 25+ on Linux, no default.jfc cap):
   * the one rule that made it the default CPU source ({@link SourceSettings#cpuTimeUsable}).
   */
  public boolean cpuTimeUsable() {
    return SourceSettings.cpuTimeUsableHere(capAtDefaultJfc);
  }

  /** The same as {@link #describe()}: never the settings' secrets. */
  @Override
  public String toString() {
    return describe();
  }
}
