package io.spanflight.internal.config;

import io.opentelemetry.sdk.autoconfigure.spi.ConfigProperties;
import io.spanflight.internal.filter.SampleFilters;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.logging.Logger;

/**
 * Every Spanflight setting, read once at startup. Each key works as a system property and as the
 * matching {@code OTEL_*} environment variable (the agent's {@link ConfigProperties} does that).
 * A bad value is collected in {@link #errors()} instead of thrown: the caller logs each one and
 * switches off what it concerns. Every key concerns the whole pipeline, so its error switches
 * Spanflight off while the application keeps running, except the {@code otel.spanflight.span.costs*}
 * keys: their error ({@link #spanCostErrors()}) switches only span costs off.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class SpanflightConfig {
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
  public static final String SCOPE_EVENTS_THRESHOLD = "otel.spanflight.scope.events.threshold";
  public static final Duration DEFAULT_SCOPE_EVENTS_THRESHOLD = Duration.ofMillis(10);
  /** {@code none} or {@code default}: no JFR setting denser than the JDK's default.jfc. */
  public static final String JFR_CAP = "otel.spanflight.jfr.cap";
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
  public static final int DEFAULT_MAX_STEPS = 2_000_000;
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

  private final List<String> errors = new ArrayList<>();
  private final List<String> spanCostErrors = new ArrayList<>();
  private final boolean enabled;
  private final Exporter exporter;
  private final Duration exportInterval;
  private final Path fileDirectory;
  private final Set<FileFormat> fileFormats;
  private final List<SourceSettings> sources;
  private final SampleFilters filters;
  private final int ringSize;
  private final int maxSteps;
  private final int methodHooksMax;
  private final boolean nativeEnabled;
  private final boolean linkLocalRoot;
  private final boolean rawPayload;
  private final List<String> contextAttributes;
  private final boolean linkUnsampled;
  private final Duration scopeEventThreshold;
  private final Path nativeDirectory;
  private final OtlpSettings otlp;
  private final boolean capAtDefaultJfc;
  private final boolean jmxEnabled;
  private final boolean spanCosts;
  private final int spanCostsMaxSpans;
  private final int spanCostsMaxRoutes;
  private final Duration spanCostsWait;

  private SpanflightConfig(ConfigProperties properties) {
    Settings s = new Settings(properties);
    enabled = read(() -> s.bool(ENABLED, true), false);
    exporter =
        Exporter.valueOf(
            read(() -> s.choice(EXPORTER, "otlp", "otlp", "file", "none"), "none")
                .toUpperCase(java.util.Locale.ROOT));
    exportInterval =
        read(
            () ->
                s.duration(
                    EXPORT_INTERVAL, DEFAULT_EXPORT_INTERVAL, Duration.ofSeconds(1), Duration.ofHours(1)),
            DEFAULT_EXPORT_INTERVAL);
    fileDirectory =
        read(
            () -> directory(s, FILE_DIRECTORY, DEFAULT_FILE_DIRECTORY, exporter == Exporter.FILE),
            Paths.get(DEFAULT_FILE_DIRECTORY));
    fileFormats = read(() -> fileFormats(s), EnumSet.of(FileFormat.OTLP));
    sources = SourceSettings.read(s, errors);
    filters = FilterSettings.read(s, sources, errors);
    ringSize = read(() -> s.powerOfTwo(RING_SIZE, DEFAULT_RING_SIZE, 16, 1 << 20), DEFAULT_RING_SIZE);
    maxSteps = read(() -> s.integer(MAX_STEPS, DEFAULT_MAX_STEPS, 10_000, 100_000_000), DEFAULT_MAX_STEPS);
    methodHooksMax =
        read(() -> s.integer(METHOD_HOOKS_MAX, DEFAULT_METHOD_HOOKS_MAX, 1, 100_000), DEFAULT_METHOD_HOOKS_MAX);
    nativeEnabled = read(() -> s.bool(NATIVE_ENABLED, true), false);
    linkLocalRoot = read(() -> s.bool(LINK_LOCAL_ROOT, false), false);
    rawPayload = read(() -> s.bool(RAW_PAYLOAD, false), false);
    contextAttributes =
        read(
            () -> s.attributeKeys(CONTEXT_ATTRIBUTES, DEFAULT_CONTEXT_ATTRIBUTES, MAX_CONTEXT_ATTRIBUTES),
            List.of());
    linkUnsampled = read(() -> s.bool(LINK_UNSAMPLED, true), true);
    boolean scopeEvents = read(() -> s.bool(SCOPE_EVENTS, false), false);
    Duration threshold =
        read(
            () -> s.duration(SCOPE_EVENTS_THRESHOLD, DEFAULT_SCOPE_EVENTS_THRESHOLD, Duration.ZERO, Duration.ofHours(1)),
            DEFAULT_SCOPE_EVENTS_THRESHOLD);
    scopeEventThreshold = scopeEvents ? threshold : null;
    nativeDirectory = read(() -> directory(s, NATIVE_DIRECTORY, null, true), null);
    otlp = exporter == Exporter.OTLP ? OtlpSettings.read(s, properties, errors) : null;
    capAtDefaultJfc = read(() -> s.choice(JFR_CAP, "none", "none", "default"), "none").equalsIgnoreCase("default");
    jmxEnabled = read(() -> s.bool(JMX_ENABLED, true), false);
    // span costs are an add-on: a bad value of theirs switches them off, not Spanflight
    boolean spanCostsAsked = readSpanCosts(() -> s.bool(SPAN_COSTS, false), false);
    spanCostsMaxSpans =
        readSpanCosts(() -> s.integer(SPAN_COSTS_MAX_SPANS, DEFAULT_SPAN_COSTS_MAX_SPANS, 100, 100_000), DEFAULT_SPAN_COSTS_MAX_SPANS);
    spanCostsMaxRoutes =
        readSpanCosts(() -> s.integer(SPAN_COSTS_MAX_ROUTES, DEFAULT_SPAN_COSTS_MAX_ROUTES, 1, 10_000), DEFAULT_SPAN_COSTS_MAX_ROUTES);
    spanCostsWait =
        readSpanCosts(
            () -> s.duration(SPAN_COSTS_WAIT, DEFAULT_SPAN_COSTS_WAIT, Duration.ofMillis(100), Duration.ofSeconds(60)),
            DEFAULT_SPAN_COSTS_WAIT);
    spanCosts = spanCostsAsked && spanCostErrors.isEmpty();
  }

  /**
   * A directory path; when {@code checked}, one that exists must be a directory (it is created
   * when missing, later). Null when unset and {@code defaultValue} is null.
   */
  private static Path directory(Settings s, String key, String defaultValue, boolean checked) {
    String value = s.string(key, defaultValue);
    if (value == null) {
      return null;
    }
    Path path;
    try {
      path = Paths.get(value);
    } catch (RuntimeException e) { // InvalidPathException: a NUL character, for one
      throw new ConfigError(key, value, "a directory path");
    }
    if (checked && Files.exists(path) && !Files.isDirectory(path)) {
      throw new ConfigError(key, value, "a directory path (this is a file)");
    }
    return path;
  }

  private static Set<FileFormat> fileFormats(Settings s) {
    Set<FileFormat> formats = EnumSet.noneOf(FileFormat.class);
    for (String format : s.choices(FILE_FORMAT, "otlp", "otlp", "json", "pprof")) {
      formats.add(FileFormat.valueOf(format.toUpperCase(java.util.Locale.ROOT)));
    }
    return formats;
  }

  public static SpanflightConfig read(ConfigProperties properties) {
    return new SpanflightConfig(properties);
  }

  private <T> T read(Supplier<T> reader, T onError) {
    try {
      return reader.get();
    } catch (ConfigError e) {
      errors.add(e.getMessage());
      return onError;
    }
  }

  private <T> T readSpanCosts(Supplier<T> reader, T onError) {
    try {
      return reader.get();
    } catch (ConfigError e) {
      spanCostErrors.add(e.getMessage());
      return onError;
    }
  }

  /**
   * Logs each error as one severe line, which says that Spanflight is off because of it; the
   * application runs on without Spanflight. Each span-cost error is one warning line saying that
   * span costs are off and the rest runs. Values that may hold secrets were never put in them.
   */
  public void logErrors() {
    for (String error : errors) {
      logger.severe("Spanflight is off (the application runs without it): " + error);
    }
    for (String error : spanCostErrors) {
      logger.warning("Spanflight span costs are off (the rest of Spanflight runs): " + error);
    }
  }

  /** One message per bad {@code otel.spanflight.span.costs*} setting; they switch span costs off only. */
  public List<String> spanCostErrors() {
    return Collections.unmodifiableList(spanCostErrors);
  }

  /** One message per bad setting, each naming the key, the value and the expected form. */
  public List<String> errors() {
    return Collections.unmodifiableList(errors);
  }

  /** True when Spanflight should run: enabled and every setting valid. */
  public boolean active() {
    return enabled && errors.isEmpty();
  }

  public boolean enabled() {
    return enabled;
  }

  public Exporter exporter() {
    return exporter;
  }

  public Duration exportInterval() {
    return exportInterval;
  }

  public Path fileDirectory() {
    return fileDirectory;
  }

  /** The context filters: which samples are kept, per source. */
  public SampleFilters filters() {
    return filters;
  }

  /** What {@code file} writes per interval: never empty. */
  public Set<FileFormat> fileFormats() {
    return Collections.unmodifiableSet(fileFormats);
  }

  /** Every JFR source, enabled or not, in catalogue order. */
  public List<SourceSettings> sources() {
    return Collections.unmodifiableList(sources);
  }

  public int ringSize() {
    return ringSize;
  }

  /** The most methods the method hooks (JDK 17 and 21) instrument. */
  public int methodHooksMax() {
    return methodHooksMax;
  }

  /** The most context switches all timelines together hold; beyond it, stretches turn unknown. */
  public int maxSteps() {
    return maxSteps;
  }

  /**
   * The Grafana/Pyroscope mode: samples link to the local-root span, which carries
   * {@code pyroscope.profile.id}.
   */
  public boolean linkLocalRoot() {
    return linkLocalRoot;
  }

  /** Span attribute keys copied from each context's local-root span (may be empty). */
  public List<String> contextAttributes() {
    return contextAttributes;
  }

  /** Whether samples of spans that were not sampled link to them (they are kept either way). */
  public boolean linkUnsampled() {
    return linkUnsampled;
  }

  /**
   * The shortest span scope recorded as a JFR {@code io.spanflight.SpanScope} event, or null when
   * those events are off.
   */
  public Duration scopeEventThreshold() {
    return scopeEventThreshold;
  }

  /** True attaches the interval's raw JFR data to each request as {@code original_payload}. */
  public boolean rawPayload() {
    return rawPayload;
  }

  /** False forces the pure-Java bridge (no native thread-context record). */
  public boolean nativeEnabled() {
    return nativeEnabled;
  }

  /**
   * The root under which a fresh private directory ({@link
   * io.spanflight.internal.bridge.PrivateDirectory}) receives the native library and the
   * boot-class-path jars; null means {@code java.io.tmpdir}. Checked when used, not here.
   */
  public Path nativeDirectory() {
    return nativeDirectory;
  }

  /**
   * True when no JFR setting of ours may be denser than the JDK's default.jfc ({@code
   * otel.spanflight.jfr.cap=default}).
   */
  public boolean capAtDefaultJfc() {
    return capAtDefaultJfc;
  }

  /** True registers the control MBean (switch on/off, counters, settings in force). */
  public boolean jmxEnabled() {
    return jmxEnabled;
  }

  /** True puts {@code spanflight.cost.*} attributes on exported spans and counts costs per route. */
  public boolean spanCosts() {
    return spanCosts;
  }

  /** The most spans held for their costs, and the most spans whose costs are tracked. */
  public int spanCostsMaxSpans() {
    return spanCostsMaxSpans;
  }

  /** Distinct {@code http.route} values in the cost metrics; beyond, {@code other}. */
  public int spanCostsMaxRoutes() {
    return spanCostsMaxRoutes;
  }

  /** How long a span waits at most for the JFR stream to pass its end. */
  public Duration spanCostsWait() {
    return spanCostsWait;
  }

  /** Null unless the exporter is {@code otlp}. */
  public OtlpSettings otlp() {
    return otlp;
  }

  /** The secrets the settings hold (see {@link OtlpSettings#secrets()}); empty without OTLP. */
  public List<String> secrets() {
    return otlp == null ? List.of() : otlp.secrets();
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
    if (spanCosts) {
      shown.put("span.costs", "on");
    }
    return shown.toString();
  }
}
