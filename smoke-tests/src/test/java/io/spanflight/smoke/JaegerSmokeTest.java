package io.spanflight.smoke;

import static org.assertj.core.api.Assertions.assertThat;

import io.spanflight.smoke.app.PropagationApp;
import io.spanflight.smoke.collector.OtlpCollector;
import io.spanflight.smoke.collector.RealCollector;
import io.spanflight.smoke.collector.RealJaeger;
import io.spanflight.smoke.harness.AppJvm;
import io.spanflight.smoke.harness.Jdk;
import io.spanflight.smoke.traces.StoredSpan;
import io.spanflight.smoke.traces.StoredTrace;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spanflight's spans in a real tracing backend: Jaeger ({@link RealJaeger}, all-in-one, in memory)
 * stores what the app with the real agent, spanflight.jar and {@code otel.spanflight.span.costs=true}
 * sends, straight over OTLP/HTTP or through our Collector build ({@link RealCollector}, its
 * {@code otlp_grpc} exporter to Jaeger), and gives each trace back through its query API. The app
 * ({@link PropagationApp}, {@code /nested}) opens a SERVER span with two nested {@code @WithSpan}
 * spans; each request comes with a trace id the test made. Trace by trace: the three spans are there,
 * the SERVER span continues the parent the test sent, every other parent resolves within the trace,
 * each child lies inside its parent's time, and every span carries {@code spanflight.cost.status=ok}
 * and {@code spanflight.cost.cpu.time_ns}. Profiles go to a test collector (direct) or the
 * Collector's debug exporter: Jaeger takes none.
 */
class JaegerSmokeTest extends SmokeTestBase {
  static final Path REPO = PATHS.buildDir().resolve("../..").normalize();
  static final Path COLLECTOR_CONFIG = Path.of("examples/collector/profiles-and-traces.yaml");
  static final Path PROFILES_TO_DEBUG = Path.of("smoke-tests/src/test/resources/collector/profiles-to-debug.yaml");
  static final String STATUS = "spanflight.cost.status";
  static final String CPU = "spanflight.cost.cpu.time_ns";
  static final int REQUESTS = 4;
  static final long REQUEST_MILLIS = 100;
  /** All spans of one trace here come from one SDK clock: a child's bounds may differ from its parent's by rounding only. */
  static final long CLOCK_TOLERANCE_NANOS = 1_000_000;
  static final Duration ARRIVAL = Duration.ofSeconds(30);

  @TempDir
  Path temp;

  /** The binary first, outside the tests' timeouts: bin/test may still be building it in the background. */
  @BeforeAll
  static void jaegerIsBuilt() throws Exception {
    RealJaeger.binary(REPO);
  }

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void appStraightToJaeger_everyJdk() throws Exception {
    try (RealJaeger jaeger = RealJaeger.start(REPO, temp); OtlpCollector profiles = OtlpCollector.start()) {
      for (Jdk jdk : jdksUnderTest()) {
        AppJvm.Builder app = app(jdk, jaeger.otlpHttpEndpoint(), "jaeger-direct-" + jdk.feature())
            .systemProperty("otel.exporter.otlp.profiles.endpoint", profiles.endpoint())
            .systemProperty("otel.exporter.otlp.profiles.protocol", "grpc");
        sendAndReadBack(app, jdk, jaeger, "straight to Jaeger, " + jdk);
      }
    }
  }

  @Test
  @Timeout(value = 2, unit = TimeUnit.MINUTES)
  void appThroughOurCollectorToJaeger() throws Exception {
    try (RealJaeger jaeger = RealJaeger.start(REPO, temp);
        RealCollector collector = RealCollector.start(REPO, List.of(COLLECTOR_CONFIG, PROFILES_TO_DEBUG), Map.of(
            "BACKEND_OTLP_GRPC_ENDPOINT", jaeger.otlpGrpcTarget(),
            "BACKEND_INSECURE", "true"), temp.resolve("collector.log"))) {
      Jdk jdk = newestJdk();
      sendAndReadBack(app(jdk, collector.httpEndpoint(), "jaeger-collector"), jdk, jaeger,
          "through the Collector, " + jdk);
      assertThat(collector.logText()).as("the Collector's log").doesNotContainPattern("\terror\t");
    }
  }

  /** The app sending traces (and, unless told otherwise, profiles) over OTLP/HTTP to {@code endpoint}. */
  private static AppJvm.Builder app(Jdk jdk, String endpoint, String serviceName) {
    return tracesOverHttp(jdk, endpoint, serviceName)
        .mainClass(PropagationApp.class.getName())
        .classpath(PATHS.appDependencies());
  }

  /**
   * An app JVM (its main class still to set) with span costs on, sending traces (and, unless told
   * otherwise, profiles) over OTLP/HTTP to {@code endpoint} every 200 ms; metrics and logs off.
   */
  static AppJvm.Builder tracesOverHttp(Jdk jdk, String endpoint, String serviceName) {
    return AppJvm.builder(jdk, PATHS)
        .serviceName(serviceName)
        .systemProperty("otel.exporter.otlp.protocol", "http/protobuf")
        .systemProperty("otel.exporter.otlp.endpoint", endpoint)
        .systemProperty("otel.metrics.exporter", "none")
        .systemProperty("otel.logs.exporter", "none")
        .systemProperty("otel.bsp.schedule.delay", "200")
        .systemProperty("otel.spanflight.export.interval", "2s")
        .systemProperty("otel.spanflight.span.costs", "true");
  }

  /**
   * Sends {@link #REQUESTS} requests, each in a trace of the test's own, and checks each trace as
   * Jaeger returns it. The CPU on the spans must add up to more than zero where JDK 25's CPU-time
   * sampler is the CPU source; on 17 and 21 (execution samples, 20 ms) a short-lived app saw as
   * little as one sample in these requests (2026-12-07), so there only the attributes must be there.
   */
  private static void sendAndReadBack(AppJvm.Builder builder, Jdk jdk, RealJaeger jaeger, String where)
      throws Exception {
    long startedAt = System.currentTimeMillis() * 1_000_000L;
    List<String[]> sent = new ArrayList<>(); // trace id, parent span id
    AppJvm app = builder.start();
    try (app) {
      HttpClient client = HttpClient.newHttpClient();
      for (int id = 0; id < REQUESTS; id++) {
        String traceId = randomHex(16);
        String parentId = randomHex(8);
        HttpRequest request = HttpRequest.newBuilder(app.baseUri().resolve("/nested?id=" + id + "&ms=" + REQUEST_MILLIS))
            .header("traceparent", "00-" + traceId + "-" + parentId + "-01").build();
        HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(withLog(app, "/nested " + id + ", " + where)).isEqualTo(200);
        sent.add(new String[] {traceId, parentId});
      }
      long cpu = 0;
      for (String[] trace : sent) {
        cpu += checkTrace(jaeger, trace[0], trace[1], startedAt, where);
      }
      System.out.println("jaeger, " + where + ": " + REQUESTS + " traces read back, " + cpu / 1_000_000
          + " ms CPU on their spans; the first: " + jaeger.trace(sent.get(0)[0]).orElseThrow().describe());
      if (jdk.feature() >= 25) {
        assertThat(cpu).as("CPU on the spans of " + REQUESTS + " requests burning " + REQUEST_MILLIS
            + " ms each, " + where).isPositive();
      }
    }
  }

  /** Checks one trace; returns the sum of its spans' {@code spanflight.cost.cpu.time_ns}. */
  private static long checkTrace(RealJaeger jaeger, String traceId, String sentParent, long startedAt, String where)
      throws Exception {
    StoredTrace trace = jaeger.awaitTrace(traceId, t -> t.spans().size() >= 3 && !t.spansByName("nested.inner").isEmpty(),
        "its SERVER span and the two nested spans (" + where + ")", ARRIVAL);
    String context = where + "\n" + trace.describe();
    List<StoredSpan> servers = trace.spansOfKind(StoredSpan.Kind.SERVER);
    assertThat(servers).as("SERVER spans, " + context).hasSize(1);
    StoredSpan server = servers.get(0);
    StoredSpan outer = single(trace, "nested.outer", context);
    StoredSpan inner = single(trace, "nested.inner", context);
    assertThat(trace.spans()).as("spans, " + context).hasSize(3);

    assertThat(server.parentSpanId()).as("the SERVER span continues the parent sent, " + context).isEqualTo(sentParent);
    assertThat(trace.unresolvedParents()).as("spans whose parent is not in the trace, " + context)
        .containsExactly(server);
    assertThat(trace.parentOf(outer)).as("nested.outer's parent, " + context).contains(server);
    assertThat(trace.parentOf(inner)).as("nested.inner's parent, " + context).contains(outer);
    assertThat(trace.childrenOf(server)).as("the SERVER span's children, " + context).containsExactly(outer);
    assertThat(trace.outsideTheirParent(trace.spans(), CLOCK_TOLERANCE_NANOS))
        .as("children outside their parent's time, " + context).isEmpty();
    long endedBy = System.currentTimeMillis() * 1_000_000L;
    assertThat(trace.spans()).as("spans timed within the test (epoch ns), " + context).allSatisfy(span -> {
      assertThat(span.startEpochNanos()).isBetween(startedAt, endedBy);
      assertThat(span.durationNanos()).isPositive();
      assertThat(span.serviceName()).startsWith("jaeger-");
    });

    assertThat(trace.spans()).as("cost attributes on every span, " + context).allSatisfy(span -> {
      assertThat(span.stringAttribute(STATUS)).as(STATUS + " of " + span.name()).contains("ok");
      assertThat(span.longAttribute(CPU)).as(CPU + " of " + span.name()).hasValueSatisfying(
          nanos -> assertThat(nanos).isNotNegative());
    });
    assertThat(trace.spansWithAttribute(STATUS, "ok")).as("spans found by their cost status, " + context).hasSize(3);
    return trace.spans().stream().mapToLong(span -> span.longAttribute(CPU).orElseThrow()).sum();
  }

  private static StoredSpan single(StoredTrace trace, String name, String context) {
    List<StoredSpan> spans = trace.spansByName(name);
    assertThat(spans).as("spans named " + name + ", " + context).hasSize(1);
    return spans.get(0);
  }

  private static String randomHex(int bytes) {
    byte[] id = new byte[bytes];
    ThreadLocalRandom.current().nextBytes(id);
    id[0] |= 1; // never all zero (an invalid id)
    return HexFormat.of().formatHex(id);
  }
}
