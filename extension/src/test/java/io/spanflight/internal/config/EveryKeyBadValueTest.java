package io.spanflight.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.fail;

import io.opentelemetry.sdk.autoconfigure.spi.internal.DefaultConfigProperties;
import io.spanflight.internal.LogLines;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every configuration key that docs/configuration.md documents (its configuration table, the
 * per-source keys of its sources table, and the context-filter keys), each with wrong values of the kinds its type
 * allows (malformed, negative, huge, wrong unit, wrong type, control characters): reading the
 * settings does not throw, exactly one warning or severe line is logged, on one line, naming the
 * key, the value (never for a secret) and the expected form, and the rest of the settings stays
 * usable. Spanflight goes off, except for the span-cost keys, which switch span costs off only,
 * and the keys of {@link #DEFAULTED}, whose default is used instead (the line says so). A
 * documented key without an entry in {@link #KINDS} fails, so a new key needs its bad values.
 */
class EveryKeyBadValueTest {
  private static final Path CONFIGURATION_DOC =
      Paths.get(System.getProperty("user.dir")).resolveSibling("docs").resolve("configuration.md");
  private static final Pattern TABLE_KEY = Pattern.compile("^\\| `(otel\\.[a-z0-9.\\-]+)` \\|", Pattern.MULTILINE);
  private static final Pattern SOURCE_ROW = Pattern.compile("^\\| `([a-z]+)` \\| `jdk\\.[^|]*\\|[^|]*\\| `([a-z]+)`", Pattern.MULTILINE);
  private static final Path SCRATCH = scratch();

  /** What a key holds, its wrong values, and a fragment of the expected form its message must name. */
  enum Kind {
    BOOLEAN("true or false", "yes", "1", "TRUE!", "true\nfalse"),
    DURATION("a duration between", "soon", "-5s", "1.5s", "10d", "10 parsecs", "99999999999999999999h", "9999h"),
    INTEGER("a whole number between", "-1", "0", "abc", "1e3", "99999999999999999999"),
    POWER_OF_TWO("a power of two between", "1000", "-16", "2147483648", "x", "8"),
    EXPORTER("one of otlp, file, none", "kafka", "otlp,file", "1"),
    JFR_CAP("one of none, default", "max", "true"),
    JFR_READER("one of auto, spanflight, jdk", "fast", "ours", "true", "jdk,auto"),
    DIAGNOSTIC_MODE(
        "one of full, jfr-only, capture-only, stream-only, reader-only", "fast", "jfr_only", "off", "full,jfr-only"),
    PROTOCOL("grpc or http/protobuf", "grpcx", "http/json", "http"),
    COMPRESSION("one of none, gzip", "zstd", "gzip,none"),
    FILE_FORMATS("a comma-separated list of otlp, json, pprof", "jfr", "otlp,,json", "otlp;json"),
    INFERRED_KINDS("a comma-separated list of waits, methods, none", "locks", "waits,,methods", "waits;methods"),
    INFERRED_DETAILS("a comma-separated list of address, path, none", "paths", "address,,path", "all"),
    ATTRIBUTE_KEYS(
        "attribute keys",
        "http route",
        "a,,b",
        "k=v",
        IntStream.rangeClosed(1, 33).mapToObj(i -> "key" + i).collect(Collectors.joining(","))),
    DIRECTORY("a directory path", "a\u0000b", SCRATCH.resolve("a-file").toString()),
    URL("a URL like http://collector:4317", "collector:4317", "ftp://h:1", "http://", "http://h:port/x", "http://user:SECRET1@h:x/p?token=SECRET2"),
    OPAMP_URL("a URL like http://opamp-server:4320/v1/opamp", "opamp:4320", "ftp://h:1", "http://", "http://user:SECRET1@h:x/p?token=SECRET2"),
    GROUPS("a comma-separated list of enabled, sources", "everything", "enabled,,sources", "sources;interval"),
    HEADERS("key=value pairs", "novalue", "a=1,SECRET3", "a=%G0SECRET4"),
    CERTIFICATE("a readable PEM file with X.509 certificates", "/no/such/file.pem", SCRATCH.resolve("a-file").toString(), SCRATCH.toString()),
    PRIVATE_KEY("a readable PEM file with a PKCS#8 private key", "/no/such/file.key", SCRATCH.resolve("a-file").toString(), SCRATCH.resolve("marker.key").toString()),
    RATE("a rate like 150/s", "lots", "150", "150/d", "-1/s", "99999999999999999999/s"),
    METHOD_FILTER("JDK method filters", "com.example.Foo::", "com example", ";;", "com.example.Foo;"),
    CONTEXT_FILTER("a filter such as hasContext", "hasContext &&", "foo", "(".repeat(5000) + "hasContext" + ")".repeat(5000));

    final String expected;
    final List<String> badValues;

    Kind(String expected, String... badValues) {
      this.expected = expected;
      this.badValues = List.of(badValues);
    }
  }

  /** The kind of each key of the configuration table (docs/configuration.md). */
  private static final Map<String, Kind> KINDS = new LinkedHashMap<>();
  /**
   * Keys whose bad value concerns nothing else: the default is used instead, and what the
   * settings then hold.
   */
  private static final Map<String, Defaulted> DEFAULTED =
      Map.of(SpanflightConfig.JFR_READER, new Defaulted("auto", SpanflightConfig::jfrReader),
          SpanflightConfig.DIAGNOSTIC_MODE, new Defaulted("full", SpanflightConfig::diagnosticMode));

  record Defaulted(String value, java.util.function.Function<SpanflightConfig, Object> inForce) {}

  /** Other settings a key is only read or checked with. */
  private static final Map<String, Map<String, String>> WITH = new HashMap<>();

  static {
    KINDS.put("otel.spanflight.enabled", Kind.BOOLEAN);
    KINDS.put("otel.spanflight.exporter", Kind.EXPORTER);
    KINDS.put("otel.spanflight.export.interval", Kind.DURATION);
    KINDS.put("otel.spanflight.export.queue.size", Kind.INTEGER);
    KINDS.put("otel.spanflight.export.shutdown.timeout", Kind.DURATION);
    KINDS.put("otel.spanflight.file.directory", Kind.DIRECTORY);
    KINDS.put("otel.spanflight.file.format", Kind.FILE_FORMATS);
    KINDS.put("otel.spanflight.timeline.ring.size", Kind.POWER_OF_TWO);
    KINDS.put("otel.spanflight.timeline.max.steps", Kind.INTEGER);
    KINDS.put("otel.spanflight.method.hooks.max", Kind.INTEGER);
    KINDS.put("otel.spanflight.link.local.root", Kind.BOOLEAN);
    KINDS.put("otel.spanflight.context.attributes", Kind.ATTRIBUTE_KEYS);
    KINDS.put("otel.spanflight.link.unsampled", Kind.BOOLEAN);
    KINDS.put("otel.spanflight.scope.events", Kind.BOOLEAN);
    KINDS.put("otel.spanflight.scope.events.threshold", Kind.DURATION);
    KINDS.put("otel.spanflight.jfr.cap", Kind.JFR_CAP);
    KINDS.put("otel.spanflight.jfr.reader", Kind.JFR_READER);
    KINDS.put("otel.spanflight.diagnostic.mode", Kind.DIAGNOSTIC_MODE);
    KINDS.put("otel.spanflight.jmx.enabled", Kind.BOOLEAN);
    KINDS.put("otel.spanflight.jit.background.c2", Kind.BOOLEAN);
    KINDS.put("otel.spanflight.span.costs", Kind.BOOLEAN);
    KINDS.put("otel.spanflight.span.costs.max.spans", Kind.INTEGER);
    KINDS.put("otel.spanflight.span.costs.max.routes", Kind.INTEGER);
    KINDS.put("otel.spanflight.span.costs.wait", Kind.DURATION);
    KINDS.put("otel.spanflight.span.inferred", Kind.INFERRED_KINDS);
    KINDS.put("otel.spanflight.span.inferred.min.duration", Kind.DURATION);
    KINDS.put("otel.spanflight.span.inferred.max.per.span", Kind.INTEGER);
    KINDS.put("otel.spanflight.span.inferred.max.per.second", Kind.INTEGER);
    KINDS.put("otel.spanflight.span.inferred.details", Kind.INFERRED_DETAILS);
    KINDS.put("otel.spanflight.raw.payload", Kind.BOOLEAN);
    KINDS.put("otel.spanflight.native.enabled", Kind.BOOLEAN);
    KINDS.put("otel.spanflight.native.directory", Kind.DIRECTORY);
    KINDS.put("otel.exporter.otlp.profiles.protocol", Kind.PROTOCOL);
    KINDS.put("otel.exporter.otlp.profiles.endpoint", Kind.URL);
    KINDS.put("otel.exporter.otlp.profiles.headers", Kind.HEADERS);
    KINDS.put("otel.exporter.otlp.profiles.compression", Kind.COMPRESSION);
    KINDS.put("otel.exporter.otlp.profiles.timeout", Kind.DURATION);
    KINDS.put("otel.exporter.otlp.profiles.certificate", Kind.CERTIFICATE);
    KINDS.put("otel.exporter.otlp.profiles.client.certificate", Kind.CERTIFICATE);
    KINDS.put("otel.exporter.otlp.profiles.client.key", Kind.PRIVATE_KEY);
    KINDS.put("otel.spanflight.context.filter", Kind.CONTEXT_FILTER);
    KINDS.put("otel.spanflight.opamp.endpoint", Kind.OPAMP_URL);
    KINDS.put("otel.spanflight.opamp.headers", Kind.HEADERS);
    KINDS.put("otel.spanflight.opamp.certificate", Kind.CERTIFICATE);
    KINDS.put("otel.spanflight.opamp.client.certificate", Kind.CERTIFICATE);
    KINDS.put("otel.spanflight.opamp.client.key", Kind.PRIVATE_KEY);
    KINDS.put("otel.spanflight.opamp.interval", Kind.DURATION);
    KINDS.put("otel.spanflight.opamp.timeout", Kind.DURATION);
    KINDS.put("otel.spanflight.opamp.remote.config", Kind.BOOLEAN);
    KINDS.put("otel.spanflight.opamp.allow", Kind.GROUPS);
    KINDS.put("otel.spanflight.opamp.min.period", Kind.DURATION);
    KINDS.put("otel.spanflight.opamp.min.threshold", Kind.DURATION);
    KINDS.put("otel.spanflight.opamp.max.throttle", Kind.INTEGER);
    KINDS.put("otel.spanflight.opamp.min.interval", Kind.DURATION);
    KINDS.put("otel.spanflight.opamp.max.time.box", Kind.DURATION);
    KINDS.put("otel.spanflight.opamp.max.methods", Kind.INTEGER);
    WITH.put("otel.spanflight.file.directory", Map.of("otel.spanflight.exporter", "file"));
  }

  /** The per-source setting names of the sources table, and the kind of their values. */
  private static final Map<String, Kind> SOURCE_SETTINGS =
      Map.of("period", Kind.DURATION, "threshold", Kind.DURATION, "throttle", Kind.RATE, "filter", Kind.METHOD_FILTER);

  /** Values that are secret as a whole, or in part: the message must not contain them. */
  private static final List<String> SECRETS = List.of("SECRET1", "SECRET2", "SECRET3", "SECRET4");

  static List<String> documentedKeys() {
    String doc = configurationDoc();
    List<String> keys = new ArrayList<>();
    Matcher table = TABLE_KEY.matcher(doc);
    while (table.find()) {
      keys.add(table.group(1));
    }
    Matcher sources = SOURCE_ROW.matcher(doc);
    while (sources.find()) {
      keys.add("otel.spanflight." + sources.group(1) + ".enabled");
      keys.add("otel.spanflight." + sources.group(1) + "." + sources.group(2));
      keys.add("otel.spanflight." + sources.group(1) + ".context.filter");
    }
    keys.add("otel.spanflight.context.filter"); // the Context filters section
    return keys.stream().distinct().collect(Collectors.toList());
  }

  static Kind kindOf(String key) {
    Kind kind = KINDS.get(key);
    if (kind != null) {
      return kind;
    }
    String[] parts = key.split("\\.");
    String setting = parts[parts.length - 1];
    if (setting.equals("enabled")) {
      return Kind.BOOLEAN;
    }
    if (key.endsWith(".context.filter")) {
      return Kind.CONTEXT_FILTER;
    }
    return SOURCE_SETTINGS.get(setting);
  }

  static Stream<Arguments> everyKeyWithEachBadValue() {
    return documentedKeys().stream()
        .filter(key -> kindOf(key) != null)
        .flatMap(key -> kindOf(key).badValues.stream().map(value -> Arguments.of(key, Redacted.oneLine(abbreviated(value)), value)));
  }

  @Test
  void theConfigurationDocDocumentsKeysAndEachHasItsBadValues() {
    List<String> keys = documentedKeys();
    assertThat(keys).as("keys parsed from %s", CONFIGURATION_DOC).hasSizeGreaterThan(40);
    assertThat(keys.stream().filter(key -> kindOf(key) == null))
        .as("documented keys without bad values in this test: add them to KINDS")
        .isEmpty();
  }

  @ParameterizedTest(name = "{0} = {1}")
  @MethodSource("everyKeyWithEachBadValue")
  void aBadValueMakesOneLineNamingKeyValueAndExpectedFormAndTheRestStaysUsable(String key, String shown, String value) {
    Map<String, String> properties = new HashMap<>(WITH.getOrDefault(key, Map.of()));
    properties.put(key, value);
    Read read = readAndLog(properties);
    SpanflightConfig config = read.config();
    List<LogRecord> lines = read.lines();

    List<LogRecord> problems = lines.stream().filter(r -> r.getLevel().intValue() >= Level.WARNING.intValue()).collect(Collectors.toList());
    assertThat(problems).as("warning or severe lines for %s=%s", key, shown).hasSize(1);
    String line = problems.get(0).getMessage();
    assertThat(line).as("one line").doesNotContain("\n", "\r");
    boolean spanCostKey = key.startsWith(SpanflightConfig.SPAN_COSTS) || key.startsWith(InferredSpanSettings.KINDS);
    boolean fleetKey = key.startsWith(OpampSettings.PREFIX);
    Defaulted defaulted = DEFAULTED.get(key);
    assertThat(line).contains("for " + key + " (", Kind.valueOf(kindOf(key).name()).expected,
        spanCostKey ? "Spanflight span costs are off (the rest of Spanflight runs)"
            : fleetKey ? "Spanflight fleet control (OpAMP) is off (the rest of Spanflight runs)"
            : defaulted != null ? "Spanflight ignores a setting (the rest of Spanflight runs as set)" : "Spanflight is off");
    SECRETS.forEach(secret -> assertThat(line).as("a secret").doesNotContain(secret));
    if (kindOf(key) == Kind.HEADERS) {
      assertThat(line).as("header values are secrets").doesNotContain("'" + value + "'");
    } else if (kindOf(key) == Kind.URL || kindOf(key) == Kind.OPAMP_URL) {
      assertThat(line).contains("'" + Redacted.endpoint(value) + "'");
    } else {
      assertThat(line).contains("'" + shownValue(value));
    }
    if (kindOf(key) == Kind.PRIVATE_KEY && value.endsWith("marker.key")) {
      assertThat(line).as("the key file's content").doesNotContain("MARKER");
    }
    if (fleetKey) { // fleet control only goes off
      assertThat(config.active()).as("Spanflight runs").isTrue();
      assertThat(config.opamp().active()).as("fleet control").isFalse();
    } else if (spanCostKey) { // an add-on: only it goes off
      assertThat(config.active()).as("Spanflight runs").isTrue();
      assertThat(config.spanCosts()).as("span costs").isFalse();
    } else if (defaulted != null) { // nothing goes off: the default is in force
      assertThat(line).endsWith("; " + defaulted.value() + ", the default, is used");
      assertThat(config.active()).as("Spanflight runs").isTrue();
      assertThat(config.errors()).isEmpty();
      assertThat(defaulted.inForce().apply(config)).isEqualTo(defaulted.value());
    } else {
      assertThat(config.active()).isFalse();
    }
    assertThatCode(() -> usable(config)).doesNotThrowAnyException();
  }

  @ParameterizedTest(name = "{0} = {1}")
  @MethodSource("spanCostKeysWithEachBadValue")
  void aBadSpanCostValueSwitchesOffSpanCostsOnlyEvenWhenTheyAreAskedFor(String key, String shown, String value) {
    Map<String, String> properties = new HashMap<>(Map.of(SpanflightConfig.SPAN_COSTS, "true"));
    properties.put(key, value);
    Read read = readAndLog(properties);
    SpanflightConfig config = read.config();
    List<LogRecord> lines = read.lines();

    assertThat(lines).filteredOn(r -> r.getLevel().intValue() >= Level.WARNING.intValue())
        .as("lines for %s=%s", key, shown).singleElement()
        .satisfies(r -> assertThat(r.getMessage()).startsWith("Spanflight span costs are off").contains(key));
    assertThat(config.errors()).isEmpty();
    assertThat(config.spanCostErrors()).hasSize(1);
    assertThat(config.active()).isTrue();
    assertThat(config.spanCosts()).isFalse();
  }

  static Stream<Arguments> spanCostKeysWithEachBadValue() {
    return everyKeyWithEachBadValue().filter(a -> a.get()[0].toString().startsWith(SpanflightConfig.SPAN_COSTS + "."));
  }

  @ParameterizedTest(name = "{0} empty")
  @MethodSource("everyKey")
  void anEmptyValueIsTheDefault(String key) {
    for (String empty : List.of("", "  ")) {
      Map<String, String> properties = new HashMap<>(WITH.getOrDefault(key, Map.of()));
      properties.put(key, empty);
      Read read = readAndLog(properties);
      SpanflightConfig config = read.config();
      List<LogRecord> lines = read.lines();
      assertThat(lines).as("lines for %s='%s'", key, empty).noneMatch(r -> r.getLevel().intValue() >= Level.WARNING.intValue());
      assertThat(config.active()).isTrue();
    }
  }

  static Stream<String> everyKey() {
    return documentedKeys().stream();
  }

  /** The settings read from {@code properties}, their errors logged, and every line Spanflight logged. */
  private record Read(SpanflightConfig config, List<LogRecord> lines) {}

  private static Read readAndLog(Map<String, String> properties) {
    try (LogLines lines = LogLines.listen("io.spanflight")) {
      SpanflightConfig[] config = new SpanflightConfig[1];
      assertThatCode(() -> config[0] = SpanflightConfig.read(DefaultConfigProperties.createFromMap(properties)))
          .as("reading %s", properties.keySet())
          .doesNotThrowAnyException();
      config[0].logErrors();
      return new Read(config[0], lines.records());
    }
  }

  /** Every getter answers: what the caller reads before and after it sees the errors. */
  private static void usable(SpanflightConfig config) {
    config.describe();
    config.sources().forEach(SourceSettings::toString);
    assertThat(config.sources()).hasSize(10);
    assertThat(config.exportInterval()).isNotNull();
    assertThat(config.fileDirectory()).isNotNull();
    assertThat(config.fileFormats()).isNotEmpty();
    assertThat(config.filters()).isNotNull();
    assertThat(config.contextAttributes()).isNotNull();
    assertThat(config.ringSize()).isPositive();
    assertThat(config.maxSteps()).isPositive();
    if (config.otlp() != null) {
      assertThat(config.otlp().endpoint()).isNotNull();
      assertThat(config.otlp().timeout()).isNotNull();
      assertThat(config.otlp().headers()).isNotNull();
    }
  }

  /** How ConfigError shows a value: on one line, cut after 200 characters. */
  private static String shownValue(String value) {
    return Redacted.oneLine(value.length() > ConfigError.MAX_SHOWN ? value.substring(0, ConfigError.MAX_SHOWN) : value);
  }

  private static String abbreviated(String value) {
    return value.length() > 40 ? value.substring(0, 40) + "... (" + value.length() + " characters)" : value;
  }

  private static String configurationDoc() {
    try {
      return Files.readString(CONFIGURATION_DOC, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Path scratch() {
    try {
      Path dir = Files.createTempDirectory("spanflight-config-test");
      Files.writeString(dir.resolve("a-file"), "not a PEM file\n");
      Files.writeString(dir.resolve("marker.key"), "-----BEGIN PRIVATE KEY-----\nMARKER0content\n-----END PRIVATE KEY-----\n");
      dir.toFile().deleteOnExit();
      dir.resolve("a-file").toFile().deleteOnExit();
      dir.resolve("marker.key").toFile().deleteOnExit();
      return dir;
    } catch (IOException e) {
      fail("cannot create a scratch directory", e);
      return null;
    }
  }
}
