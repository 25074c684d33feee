package io.spanflight.internal.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.sdk.autoconfigure.spi.internal.DefaultConfigProperties;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SpanflightConfigTest {
  /** Whether this JVM's default CPU source is the CPU-time sampler (JDK 25+ on Linux). */
  private static final boolean CPU_TIME_HERE = SourceSettings.cpuTimeUsableHere(false);

  private static SpanflightConfig read(Map<String, String> properties) {
    return SpanflightConfig.read(DefaultConfigProperties.createFromMap(properties));
  }

  @Test
  void defaults() {
    SpanflightConfig config = read(Map.of());
    assertThat(config.errors()).isEmpty();
    assertThat(config.active()).isTrue();
    assertThat(config.exporter()).isEqualTo(SpanflightConfig.Exporter.OTLP);
    assertThat(config.exportInterval()).isEqualTo(Duration.ofSeconds(10));
    assertThat(config.sources())
        .extracting(SourceSettings::toString)
        .containsExactly(
            CPU_TIME_HERE ? "cpu(off)" : "cpu(period=20 ms)",
            CPU_TIME_HERE ? "cputime(period=20 ms)" : "cputime(off)",
            "nativemethod(off)",
            "alloc(off)",
            "lock(threshold=20 ms)",
            "park(threshold=20 ms)",
            "socket(threshold=20 ms)",
            "file(threshold=20 ms)",
            "methodtiming(off)",
            "methodtrace(off)");
    assertThat(config.fileDirectory()).isEqualTo(Paths.get("spanflight-profiles"));
    assertThat(config.otlp().endpoint().toString())
        .isEqualTo("http://localhost:4318/v1development/profiles"); // OTLP default: http/protobuf
    assertThat(config.otlp().timeout()).isEqualTo(Duration.ofSeconds(10));
  }

  @Test
  void readsEveryKey() {
    SpanflightConfig config =
        read(
            Map.of(
                "otel.spanflight.exporter", "FILE",
                "otel.spanflight.export.interval", "2s",
                "otel.spanflight.cpu.period", "10ms",
                "otel.spanflight.file.directory", "/tmp/x",
                "otel.spanflight.timeline.ring.size", "4096"));
    assertThat(config.errors()).isEmpty();
    assertThat(config.exporter()).isEqualTo(SpanflightConfig.Exporter.FILE);
    assertThat(config.exportInterval()).isEqualTo(Duration.ofSeconds(2));
    assertThat(config.sources().get(0).value()).isEqualTo("10 ms");
    assertThat(config.sources().get(0).nanos()).isEqualTo(10_000_000L);
    assertThat(config.fileDirectory()).isEqualTo(Paths.get("/tmp/x"));
    assertThat(config.ringSize()).isEqualTo(4096);
    assertThat(config.otlp()).isNull();
  }

  @Test
  void profilesEndpointWinsOverTheGenericOne() {
    SpanflightConfig config =
        read(
            Map.of(
                "otel.exporter.otlp.endpoint", "http://generic:4317",
                "otel.exporter.otlp.profiles.endpoint", "https://profiles:4317",
                "otel.exporter.otlp.headers", "a=1",
                "otel.exporter.otlp.timeout", "3s"));
    assertThat(config.otlp().endpoint().toString()).isEqualTo("https://profiles:4317");
    assertThat(config.otlp().headers()).containsEntry("a", "1");
    assertThat(config.otlp().timeout()).isEqualTo(Duration.ofSeconds(3));
    assertThat(read(Map.of("otel.exporter.otlp.endpoint", "http://generic:4318")).otlp().endpoint())
        .hasToString("http://generic:4318/v1development/profiles");
  }

  @Test
  void badValuesNameKeyValueAndExpectedFormAndSwitchSpanflightOff() {
    SpanflightConfig config =
        read(
            Map.of(
                "otel.spanflight.exporter", "kafka",
                "otel.spanflight.export.interval", "soon",
                "otel.spanflight.enabled", "yes",
                "otel.spanflight.timeline.ring.size", "1000"));
    assertThat(config.active()).isFalse();
    assertThat(config.errors())
        .containsExactlyInAnyOrder(
            "invalid value 'yes' for otel.spanflight.enabled (OTEL_SPANFLIGHT_ENABLED): expected true or false",
            "invalid value 'kafka' for otel.spanflight.exporter (OTEL_SPANFLIGHT_EXPORTER): expected one of otlp, file, none",
            "invalid value 'soon' for otel.spanflight.export.interval (OTEL_SPANFLIGHT_EXPORT_INTERVAL): expected a duration between 1s and 3600s, like 20ms, 10s or 1m",
            "invalid value '1000' for otel.spanflight.timeline.ring.size (OTEL_SPANFLIGHT_TIMELINE_RING_SIZE): expected a power of two between 16 and 1048576");
  }

  @Test
  void outOfRangeDurationsAndBadEndpointsAreRefused() {
    assertThat(read(Map.of("otel.spanflight.cpu.period", "0ms")).errors())
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
        .contains("otel.spanflight.cpu.period", "'0ms'", "between 1ms and 10s");
    assertThat(read(Map.of("otel.exporter.otlp.profiles.endpoint", "collector:4317")).errors())
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
        .contains("otel.exporter.otlp.profiles.endpoint", "a URL like http://collector:4317");
  }

  @Test
  void sourcesAreSwitchedAndTunedOneByOne() {
    SpanflightConfig config =
        read(
            Map.of(
                "otel.spanflight.cputime.enabled", "true",
                "otel.spanflight.lock.enabled", "false",
                "otel.spanflight.alloc.enabled", "true",
                "otel.spanflight.alloc.throttle", "10/ms",
                "otel.spanflight.socket.threshold", "5ms",
                "otel.spanflight.methodtrace.filter", "com.example.Foo::bar;::baz;@com.example.Traced"));
    assertThat(config.errors()).isEmpty();
    assertThat(config.sources())
        .extracting(SourceSettings::toString)
        .contains(
            "cputime(period=20 ms)",
            "lock(off)",
            "alloc(throttle=10/ms)",
            "socket(threshold=5 ms)",
            "methodtrace(filter=com.example.Foo::bar;::baz;@com.example.Traced)");
  }

  @Test
  void badSourceSettingsAreRefusedWithTheirKey() {
    SpanflightConfig config =
        read(
            Map.of(
                "otel.spanflight.alloc.throttle", "lots",
                "otel.spanflight.methodtiming.filter", "com.example.Foo::",
                "otel.spanflight.park.enabled", "on"));
    assertThat(config.active()).isFalse();
    assertThat(config.errors())
        .anySatisfy(e -> assertThat(e).contains("otel.spanflight.alloc.throttle", "'lots'", "a rate like 150/s"))
        .anySatisfy(e -> assertThat(e).contains("otel.spanflight.methodtiming.filter", "com.example.Foo::bar"))
        .anySatisfy(e -> assertThat(e).contains("OTEL_SPANFLIGHT_PARK_ENABLED", "'on'", "true or false"));
  }

  @Test
  void contextFiltersAreParsedAndBadOnesNameTheirPosition() {
    assertThat(read(Map.of("otel.spanflight.context.filter", "hasContext && sampled")).errors()).isEmpty();
    assertThat(read(Map.of("otel.spanflight.lock.context.filter", "hasContext &&")).errors())
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
        .contains("otel.spanflight.lock.context.filter", "OTEL_SPANFLIGHT_LOCK_CONTEXT_FILTER", "at position 13");
  }

  @Test
  void disabledIsNotAnError() {
    SpanflightConfig config = read(Map.of("otel.spanflight.enabled", "false"));
    assertThat(config.errors()).isEmpty();
    assertThat(config.active()).isFalse();
  }
  @Test
  void fileFormatsAreACommaSeparatedSubset() {
    assertThat(read(Map.of()).fileFormats()).containsExactly(SpanflightConfig.FileFormat.OTLP);
    SpanflightConfig config = read(Map.of("otel.spanflight.file.format", "pprof, JSON"));
    assertThat(config.errors()).isEmpty();
    assertThat(config.fileFormats())
        .containsExactly(SpanflightConfig.FileFormat.JSON, SpanflightConfig.FileFormat.PPROF);
    assertThat(read(Map.of("otel.spanflight.file.format", "otlp,jfr")).errors())
        .containsExactly(
            "invalid value 'otlp,jfr' for otel.spanflight.file.format (OTEL_SPANFLIGHT_FILE_FORMAT): "
                + "expected a comma-separated list of otlp, json, pprof, like otlp");
    assertThat(read(Map.of("otel.spanflight.file.format", "otlp,")).active()).isFalse();
  }

  @Test
  void theNativeMethodSourceAndTheNativeBridgeHaveKeysOfTheirOwn() {
    SpanflightConfig sourceOn = read(Map.of("otel.spanflight.nativemethod.enabled", "true"));
    assertThat(sourceOn.nativeEnabled()).as("bridge").isTrue();
    assertThat(sourceOn.sources()).extracting(SourceSettings::toString).contains("nativemethod(period=20 ms)");

    SpanflightConfig bridgeOff = read(Map.of("otel.spanflight.native.enabled", "false"));
    assertThat(bridgeOff.nativeEnabled()).as("bridge").isFalse();
    assertThat(bridgeOff.sources()).extracting(SourceSettings::toString).contains("nativemethod(off)");
  }
}
