package io.spanflight.internal.config;

import static io.spanflight.internal.config.SpanflightConfig.CONTEXT_ATTRIBUTES;
import static io.spanflight.internal.config.SpanflightConfig.DEFAULT_CONTEXT_ATTRIBUTES;
import static io.spanflight.internal.config.SpanflightConfig.DEFAULT_DIAGNOSTIC_MODE;
import static io.spanflight.internal.config.SpanflightConfig.DEFAULT_EXPORT_INTERVAL;
import static io.spanflight.internal.config.SpanflightConfig.DEFAULT_FILE_DIRECTORY;
import static io.spanflight.internal.config.SpanflightConfig.DEFAULT_MAX_STEPS;
import static io.spanflight.internal.config.SpanflightConfig.DEFAULT_METHOD_HOOKS_MAX;
import static io.spanflight.internal.config.SpanflightConfig.DEFAULT_RING_SIZE;
import static io.spanflight.internal.config.SpanflightConfig.BACKGROUND_C2;
import static io.spanflight.internal.config.SpanflightConfig.DEFAULT_SCOPE_EVENTS_THRESHOLD;
import static io.spanflight.internal.config.SpanflightConfig.DEFAULT_SPAN_COSTS_MAX_ROUTES;
import static io.spanflight.internal.config.SpanflightConfig.DEFAULT_SPAN_COSTS_MAX_SPANS;
import static io.spanflight.internal.config.SpanflightConfig.DEFAULT_SPAN_COSTS_WAIT;
import static io.spanflight.internal.config.SpanflightConfig.DIAGNOSTIC_MODE;
import static io.spanflight.internal.config.SpanflightConfig.DIAGNOSTIC_MODES;
import static io.spanflight.internal.config.SpanflightConfig.ENABLED;
import static io.spanflight.internal.config.SpanflightConfig.EXPORTER;
import static io.spanflight.internal.config.SpanflightConfig.EXPORT_INTERVAL;
import static io.spanflight.internal.config.SpanflightConfig.FILE_DIRECTORY;
import static io.spanflight.internal.config.SpanflightConfig.FILE_FORMAT;
import static io.spanflight.internal.config.SpanflightConfig.JFR_CAP;
import static io.spanflight.internal.config.SpanflightConfig.JFR_READER;
import static io.spanflight.internal.config.SpanflightConfig.JMX_ENABLED;
import static io.spanflight.internal.config.SpanflightConfig.LINK_LOCAL_ROOT;
import static io.spanflight.internal.config.SpanflightConfig.LINK_UNSAMPLED;
import static io.spanflight.internal.config.SpanflightConfig.MAX_CONTEXT_ATTRIBUTES;
import static io.spanflight.internal.config.SpanflightConfig.MAX_STEPS;
import static io.spanflight.internal.config.SpanflightConfig.METHOD_HOOKS_MAX;
import static io.spanflight.internal.config.SpanflightConfig.NATIVE_DIRECTORY;
import static io.spanflight.internal.config.SpanflightConfig.NATIVE_ENABLED;
import static io.spanflight.internal.config.SpanflightConfig.RAW_PAYLOAD;
import static io.spanflight.internal.config.SpanflightConfig.RING_SIZE;
import static io.spanflight.internal.config.SpanflightConfig.SCOPE_EVENTS;
import static io.spanflight.internal.config.SpanflightConfig.SCOPE_EVENTS_THRESHOLD;
import static io.spanflight.internal.config.SpanflightConfig.SPAN_COSTS;
import static io.spanflight.internal.config.SpanflightConfig.SPAN_COSTS_MAX_ROUTES;
import static io.spanflight.internal.config.SpanflightConfig.SPAN_COSTS_MAX_SPANS;
import static io.spanflight.internal.config.SpanflightConfig.SPAN_COSTS_WAIT;

import io.opentelemetry.sdk.autoconfigure.spi.ConfigProperties;
import io.spanflight.internal.config.SpanflightConfig.Exporter;
import io.spanflight.internal.config.SpanflightConfig.FileFormat;
import io.spanflight.internal.filter.SampleFilters;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Reads every key of {@link SpanflightConfig} once, in a fixed order, into one. A bad value adds
 * its message to the errors (the {@code otel.spanflight.span.costs*} keys: to the span-cost errors;
 * {@code otel.spanflight.jfr.reader} and {@code otel.spanflight.diagnostic.mode}: to the defaulted
 * settings) and is replaced by a safe value, so
 * that one wrong key makes one message.
 *
 * <p>Not API: internal to Spanflight.
 */
final class ConfigReader {
  private final ConfigProperties properties;
  private final Settings s;
  private final List<String> errors = new ArrayList<>();
  private final List<String> spanCostErrors = new ArrayList<>();
  private final List<String> defaulted = new ArrayList<>();

  ConfigReader(ConfigProperties properties) {
    this.properties = properties;
    this.s = new Settings(properties);
  }

  SpanflightConfig read() {
    boolean enabled = read(() -> s.bool(ENABLED, true), false);
    Exporter exporter =
        Exporter.valueOf(
            read(() -> s.choice(EXPORTER, "otlp", "otlp", "file", "none"), "none").toUpperCase(java.util.Locale.ROOT));
    Duration exportInterval =
        read(
            () -> s.duration(EXPORT_INTERVAL, DEFAULT_EXPORT_INTERVAL, Duration.ofSeconds(1), Duration.ofHours(1)),
            DEFAULT_EXPORT_INTERVAL);
    Path fileDirectory =
        read(
            () -> directory(s, FILE_DIRECTORY, DEFAULT_FILE_DIRECTORY, exporter == Exporter.FILE),
            Paths.get(DEFAULT_FILE_DIRECTORY));
    Set<FileFormat> fileFormats = read(this::fileFormats, EnumSet.of(FileFormat.OTLP));
    boolean capAtDefaultJfc =
        read(() -> s.choice(JFR_CAP, "none", "none", "default"), "none").equalsIgnoreCase("default");
    List<SourceSettings> sources = SourceSettings.read(s, errors, SourceSettings.cpuTimeUsableHere(capAtDefaultJfc));
    SampleFilters filters = FilterSettings.read(s, sources, errors);
    int ringSize = read(() -> s.powerOfTwo(RING_SIZE, DEFAULT_RING_SIZE, 16, 1 << 20), DEFAULT_RING_SIZE);
    int maxSteps = read(() -> s.integer(MAX_STEPS, DEFAULT_MAX_STEPS, 10_000, 100_000_000), DEFAULT_MAX_STEPS);
    int methodHooksMax =
        read(() -> s.integer(METHOD_HOOKS_MAX, DEFAULT_METHOD_HOOKS_MAX, 1, 100_000), DEFAULT_METHOD_HOOKS_MAX);
    boolean nativeEnabled = read(() -> s.bool(NATIVE_ENABLED, true), false);
    boolean linkLocalRoot = read(() -> s.bool(LINK_LOCAL_ROOT, false), false);
    boolean rawPayload = read(() -> s.bool(RAW_PAYLOAD, false), false);
    List<String> contextAttributes =
        read(() -> s.attributeKeys(CONTEXT_ATTRIBUTES, DEFAULT_CONTEXT_ATTRIBUTES, MAX_CONTEXT_ATTRIBUTES), List.of());
    boolean linkUnsampled = read(() -> s.bool(LINK_UNSAMPLED, true), true);
    boolean scopeEvents = read(() -> s.bool(SCOPE_EVENTS, false), false);
    Duration threshold =
        read(
            () -> s.duration(SCOPE_EVENTS_THRESHOLD, DEFAULT_SCOPE_EVENTS_THRESHOLD, Duration.ZERO, Duration.ofHours(1)),
            DEFAULT_SCOPE_EVENTS_THRESHOLD);
    Path nativeDirectory = read(() -> directory(s, NATIVE_DIRECTORY, null, true), null);
    OtlpSettings otlp = exporter == Exporter.OTLP ? OtlpSettings.read(s, properties, errors) : null;
    // which reader reads the recording concerns nothing else: a bad value reads as the default does
    String jfrReader =
        readOrDefault(() -> s.choice(JFR_READER, "auto", "auto", "spanflight", "jdk"), "auto").toLowerCase(java.util.Locale.ROOT);
    // a diagnostic: a bad value runs all of Spanflight, as without it
    String diagnosticMode = readOrDefault(
        () -> s.choice(DIAGNOSTIC_MODE, DEFAULT_DIAGNOSTIC_MODE, DIAGNOSTIC_MODES.toArray(String[]::new)),
        DEFAULT_DIAGNOSTIC_MODE);
    boolean jmxEnabled = read(() -> s.bool(JMX_ENABLED, true), false);
    boolean backgroundC2 = read(() -> s.bool(BACKGROUND_C2, false), false);
    // span costs are an add-on: a bad value of theirs switches them off, not Spanflight
    boolean spanCostsAsked = readSpanCosts(() -> s.bool(SPAN_COSTS, false), false);
    int spanCostsMaxSpans =
        readSpanCosts(() -> s.integer(SPAN_COSTS_MAX_SPANS, DEFAULT_SPAN_COSTS_MAX_SPANS, 100, 100_000), DEFAULT_SPAN_COSTS_MAX_SPANS);
    int spanCostsMaxRoutes =
        readSpanCosts(() -> s.integer(SPAN_COSTS_MAX_ROUTES, DEFAULT_SPAN_COSTS_MAX_ROUTES, 1, 10_000), DEFAULT_SPAN_COSTS_MAX_ROUTES);
    Duration spanCostsWait =
        readSpanCosts(
            () -> s.duration(SPAN_COSTS_WAIT, DEFAULT_SPAN_COSTS_WAIT, Duration.ofMillis(100), Duration.ofSeconds(60)),
            DEFAULT_SPAN_COSTS_WAIT);
    InferredSpanSettings inferred = InferredSpanSettings.read(s, this::readSpanCosts);
    OpampSettings opamp = OpampSettings.read(s, properties);
    return new SpanflightConfig(
        List.copyOf(errors), List.copyOf(spanCostErrors), List.copyOf(defaulted), enabled, exporter, exportInterval, fileDirectory,
        Collections.unmodifiableSet(fileFormats), Collections.unmodifiableList(sources), filters, ringSize, maxSteps,
        methodHooksMax, nativeEnabled, linkLocalRoot, rawPayload, contextAttributes, linkUnsampled,
        scopeEvents ? threshold : null, nativeDirectory, otlp, capAtDefaultJfc, jmxEnabled, backgroundC2,
        spanCostsAsked && spanCostErrors.isEmpty(), spanCostsMaxSpans, spanCostsMaxRoutes, spanCostsWait, inferred, jfrReader,
        diagnosticMode, opamp);
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

  private Set<FileFormat> fileFormats() {
    Set<FileFormat> formats = EnumSet.noneOf(FileFormat.class);
    for (String format : s.choices(FILE_FORMAT, "otlp", "otlp", "json", "pprof")) {
      formats.add(FileFormat.valueOf(format.toUpperCase(java.util.Locale.ROOT)));
    }
    return formats;
  }

  /** Every key {@link #read} asked for (set or not). */
  Set<String> keysAsked() {
    return s.asked();
  }

  private <T> T read(Supplier<T> reader, T onError) {
    return ConfigError.collect(errors, reader, onError);
  }

  private <T> T readSpanCosts(Supplier<T> reader, T onError) {
    return ConfigError.collect(spanCostErrors, reader, onError);
  }

  /** A setting whose bad value concerns nothing else: its default stands in, said in the message. */
  private <T> T readOrDefault(Supplier<T> reader, T defaultValue) {
    List<String> refused = new ArrayList<>(1);
    T value = ConfigError.collect(refused, reader, defaultValue);
    refused.forEach(error -> defaulted.add(error + "; " + defaultValue + ", the default, is used"));
    return value;
  }
}
