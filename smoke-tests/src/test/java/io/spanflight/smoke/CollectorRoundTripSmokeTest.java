package io.spanflight.smoke;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.spanflight.smoke.collector.OtlpCollector;
import io.spanflight.smoke.collector.RealCollector;
import io.spanflight.smoke.harness.AppJvm;
import io.spanflight.smoke.harness.Jdk;
import io.spanflight.smoke.harness.LoadDriver;
import io.spanflight.smoke.profiles.CpuSamples;
import io.spanflight.smoke.profiles.ResolvedSamples;
import io.spanflight.smoke.profiles.SpanLink;
import io.spanflight.smoke.profiles.StackSample;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Spanflight through a real OpenTelemetry Collector ({@link RealCollector}, running
 * {@code examples/collector/profiles-and-traces.yaml}), sample for sample: the app exports traces
 * and profiles to a recording hop that forwards each request unchanged to the Collector's OTLP
 * receiver; the Collector's {@code otlp_grpc} exporter sends them on to a second test collector.
 * Every sample that comes out, with every field and every dictionary reference resolved
 * ({@link ResolvedSamples}), must equal what Spanflight sent; every linked span must have come
 * through the Collector too; the Collector's debug exporter must print the samples.
 */
class CollectorRoundTripSmokeTest extends SmokeTestBase {
  static final Path CONFIG = Path.of("examples/collector/profiles-and-traces.yaml");
  static final Path FILE_EXPORTER = Path.of("smoke-tests/src/test/resources/collector/file-exporter.yaml");
  static final Path REPO = PATHS.buildDir().resolve("../..").normalize();

  @TempDir
  Path temp;

  @ParameterizedTest(name = "{0}, compression {1}")
  @CsvSource({"grpc, gzip", "grpc, none", "http/protobuf, gzip", "http/protobuf, none"})
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void testAppThroughTheCollector_everySampleAsSent(String protocol, String compression) throws Exception {
    roundTrip(newestJdk(), protocol, compression, false);
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void demoServiceThroughTheCollector_everySampleAsSent() throws Exception {
    roundTrip(newestJdk(), "grpc", "gzip", true);
  }

  /** The core case on every JDK the smoke tests run on (the newest >= 25, 21 and 17). */
  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void testAppOnEveryJdkThroughTheCollector_everySampleAsSent() throws Exception {
    for (Jdk jdk : jdksUnderTest()) {
      roundTrip(jdk, "http/protobuf", "gzip", false);
    }
  }

  private void roundTrip(Jdk jdk, String protocol, String compression, boolean demo) throws Exception {
    try (OtlpCollector backend = OtlpCollector.startBehindAnotherSender();
        RealCollector collector = RealCollector.start(REPO, List.of(CONFIG, FILE_EXPORTER), Map.of(
            "BACKEND_OTLP_GRPC_ENDPOINT", "127.0.0.1:" + backend.port(),
            "BACKEND_INSECURE", "true",
            "DEBUG_VERBOSITY", "detailed",
            "FILE_EXPORT_PATH", temp.resolve("profiles.binpb").toString()), temp.resolve("collector.log"));
        OtlpCollector hop = OtlpCollector.startForwarding(collector.grpcTarget(), collector.httpEndpoint())) {
      boolean grpc = protocol.equals("grpc");
      AppJvm.Builder builder = app(jdk, hop, "roundtrip-" + (demo ? "demo" : "app"))
          .systemProperty("otel.exporter.otlp.protocol", protocol)
          .systemProperty("otel.exporter.otlp.endpoint", grpc ? hop.endpoint() : hop.httpEndpoint())
          .systemProperty("otel.exporter.otlp.compression", compression)
          .systemProperty("otel.bsp.schedule.delay", "500")
          .systemProperty("otel.spanflight.context.attributes", "http.route,http.request.method");
      if (demo) {
        builder.mainClass("io.spanflight.demo.service.DemoService")
            .classpath(List.of(REPO.resolve("demo/target/classes")));
      }
      AppJvm app = builder.start();
      try (app) {
        LoadDriver load = new LoadDriver(app.baseUri());
        List<String> paths = demo ? ReportedApp.demo().requests() : List.of("/burn?ms=20");
        load.sendFor(Duration.ofSeconds(8), paths, 2, Duration.ofSeconds(5), progress -> {});
        assertThat(hop.await(c -> linkedCpuSamples(c.profileRequests()) > 0, Duration.ofSeconds(30)))
            .as(withLog(app, "linked CPU samples accepted by the Collector; " + received(hop)
                + "\nCollector log:\n" + collector.logTail(20))).isTrue();
      }
      List<ExportProfilesServiceRequest> sent = hop.profileRequests(); // the app has stopped: all of it
      List<String> sentSamples = ResolvedSamples.of(sent);
      boolean allOut = backend.await(c -> sampleCount(c.profileRequests()) >= sentSamples.size(),
          Duration.ofSeconds(30));
      List<String> outSamples = ResolvedSamples.of(backend.profileRequests());
      String where = protocol + ", compression " + compression + (demo ? ", demo service" : ", test app") + ", "
          + jdk;

      assertThat(grpc ? hop.grpcProfileEncodings() : hop.httpProfileEncodings()).as("encodings sent, " + where)
          .isNotEmpty().containsOnly(compression.equals("gzip") ? "gzip" : "identity");
      List<StackSample> sentCpu = CpuSamples.decodeAll(sent);
      assertSentIsComplete(sent, sentCpu, where);
      assertThat(allOut).as("the Collector passed on every sample within 30 s (" + outSamples.size() + " of "
          + sentSamples.size() + "), " + where + "\nCollector log:\n" + collector.logTail(20)).isTrue();
      assertThat(profileCount(backend.profileRequests())).as("profiles out = profiles sent, " + where)
          .isEqualTo(profileCount(sent));
      assertThat(differences(sentSamples, outSamples)).as("samples that differ, " + where).isEmpty();
      assertLinksNameSpansThatCameThrough(sentCpu, backend, where);
      List<String> fileSamples = fileExporterSamples(temp.resolve("profiles.binpb"), sentSamples.size());
      assertThat(differences(sentSamples, fileSamples)).as("samples that differ in the file exporter's output ("
          + fileSamples.size() + " of " + sentSamples.size() + "), " + where).isEmpty();
      assertDebugExporterPrinted(collector, sentCpu, where);
    }
  }

  /** The samples in the file exporter's output, once it holds {@code expected} of them (10 s at most). */
  private static List<String> fileExporterSamples(Path file, int expected) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    List<String> samples = ResolvedSamples.of(FileExporterOutput.read(file));
    while (samples.size() < expected && System.nanoTime() < deadline) {
      Thread.sleep(200);
      samples = ResolvedSamples.of(FileExporterOutput.read(file));
    }
    return samples;
  }

  /** What a dropped field in our encoder would take away on both sides of the hop, so it is asserted here. */
  private static void assertSentIsComplete(List<ExportProfilesServiceRequest> sent, List<StackSample> cpu,
      String where) {
    assertThat(cpu).as("CPU samples sent, " + where).isNotEmpty();
    assertThat(cpu).as("every CPU sample has frames, " + where).allMatch(sample -> !sample.frames().isEmpty());
    assertThat(cpu.stream().filter(StackSample::isLinked).count()).as("linked CPU samples, " + where).isPositive();
    assertThat(cpu.stream().filter(StackSample::isLinked))
        .as("every linked CPU sample carries its span's context attributes, " + where)
        .allMatch(sample -> sample.attributes().containsKey("http.route"));
    for (ExportProfilesServiceRequest request : sent) {
      request.getResourceProfilesList().forEach(resource -> assertThat(resource.getResource().getAttributesList())
          .as("resource attributes, " + where).extracting(attribute -> attribute.getKey())
          .contains("service.name", "process.pid"));
      request.getResourceProfilesList().forEach(resource -> resource.getScopeProfilesList().forEach(scope ->
          scope.getProfilesList().forEach(profile -> profile.getSamplesList().forEach(sample -> {
            assertThat(sample.getTimestampsUnixNanoCount()).as("timestamps of a sample, " + where).isPositive();
            assertThat(sample.getValuesCount()).as("values of a sample, " + where).isPositive();
          }))));
    }
  }

  private static void assertLinksNameSpansThatCameThrough(List<StackSample> sentCpu, OtlpCollector backend,
      String where) throws InterruptedException {
    Set<SpanLink> linked = new HashSet<>();
    sentCpu.stream().filter(StackSample::isLinked).forEach(sample -> linked.add(sample.link()));
    backend.await(c -> spans(c, span -> true).containsAll(linked), Duration.ofSeconds(15));
    Set<SpanLink> missing = new HashSet<>(linked);
    missing.removeAll(spans(backend, span -> true));
    assertThat(missing).as("linked spans (of " + linked.size() + ") that did not come through the Collector, "
        + where).isEmpty();
  }

  /** The debug exporter's detailed output holds our samples: trace ids and a context attribute read back. */
  private static void assertDebugExporterPrinted(RealCollector collector, List<StackSample> sentCpu, String where) {
    String log = collector.logText();
    assertThat(log).as("the Collector's log, " + where).contains("Sample #0", "Values: [")
        .doesNotContain("Missing Dictionary").doesNotContainPattern("\terror\t");
    Matcher traceId = Pattern.compile("-> Trace ID: Str\\(([0-9a-f]{32})\\)").matcher(log);
    Set<String> sentTraceIds = new HashSet<>();
    sentCpu.stream().filter(StackSample::isLinked).forEach(sample -> sentTraceIds.add(sample.link().traceId()));
    List<String> printed = new ArrayList<>();
    while (traceId.find()) {
      printed.add(traceId.group(1));
    }
    assertThat(printed).as("trace ids the debug exporter printed, " + where).containsAnyElementsOf(sentTraceIds);
    String route = sentCpu.stream().filter(StackSample::isLinked).findFirst().orElseThrow()
        .attributes().get("http.route");
    assertThat(log).as("a sample's http.route printed, " + where).contains("-> http.route: Str(" + route + ")");
  }

  /** The lines only one side has, as many times as it has them more: empty when both are equal multisets. */
  static List<String> differences(List<String> sent, List<String> out) {
    Map<String, Integer> balance = new HashMap<>();
    sent.forEach(line -> balance.merge(line, 1, Integer::sum));
    out.forEach(line -> balance.merge(line, -1, Integer::sum));
    List<String> differing = new ArrayList<>();
    balance.forEach((line, count) -> {
      if (count != 0) {
        differing.add((count > 0 ? "sent only (x" + count + "): " : "out only (x" + -count + "): ") + line);
      }
    });
    return differing.subList(0, Math.min(differing.size(), 6));
  }

  private static int profileCount(List<ExportProfilesServiceRequest> requests) {
    return requests.stream().flatMap(r -> r.getResourceProfilesList().stream())
        .flatMap(r -> r.getScopeProfilesList().stream()).mapToInt(s -> s.getProfilesCount()).sum();
  }

  /** The samples in {@code requests}: as many as {@link ResolvedSamples#of} makes lines, without resolving them. */
  private static int sampleCount(List<ExportProfilesServiceRequest> requests) {
    return requests.stream().flatMap(r -> r.getResourceProfilesList().stream())
        .flatMap(r -> r.getScopeProfilesList().stream()).flatMap(s -> s.getProfilesList().stream())
        .mapToInt(p -> p.getSamplesCount()).sum();
  }

  private static long linkedCpuSamples(List<ExportProfilesServiceRequest> requests) {
    return CpuSamples.decodeAll(requests).stream().filter(StackSample::isLinked).count();
  }

}
