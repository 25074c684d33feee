package io.spanflight.smoke;

import static org.assertj.core.api.Assertions.assertThat;

import io.spanflight.smoke.InferredSpansSmokeTest.Sent;
import io.spanflight.smoke.app.waits.WaitsApp;
import io.spanflight.smoke.collector.OtlpCollector;
import io.spanflight.smoke.collector.RealCollector;
import io.spanflight.smoke.collector.RealJaeger;
import io.spanflight.smoke.harness.AppJvm;
import io.spanflight.smoke.harness.Jdk;
import io.spanflight.smoke.traces.StoredTrace;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Inferred spans as a real tracing backend stores them: {@link WaitsApp}'s traces go to Jaeger
 * ({@link RealJaeger}) straight over OTLP/HTTP and through our Collector build, and each trace read
 * back through Jaeger's query API holds the wait and method spans under the right parents, inside
 * their parents' time, as long as the app measured, with the costs on the SERVER span; unsampled
 * traces are not there. Then the demo service's {@code /report} traces, whose socket wait must show.
 */
class JaegerInferredSpansSmokeTest extends SmokeTestBase {
  static final Path REPO = PATHS.buildDir().resolve("../..").normalize();
  static final Duration ARRIVAL = Duration.ofSeconds(30);

  @TempDir
  Path temp;

  @BeforeAll
  static void jaegerIsBuilt() throws Exception {
    RealJaeger.binary(REPO); // bin/test may still be building it in the background
  }

  @Test
  @Timeout(value = 2, unit = TimeUnit.MINUTES)
  void waitsAppStraightToJaeger() throws Exception {
    try (RealJaeger jaeger = RealJaeger.start(REPO, temp); OtlpCollector profiles = OtlpCollector.start()) {
      sendAndReadBack(waitsApp(newestJdk(), jaeger.otlpHttpEndpoint(), profiles), jaeger, "straight to Jaeger");
    }
  }

  @Test
  @Timeout(value = 2, unit = TimeUnit.MINUTES)
  void waitsAppThroughOurCollectorToJaeger() throws Exception {
    try (RealJaeger jaeger = RealJaeger.start(REPO, temp);
        RealCollector collector = RealCollector.start(REPO, List.of(JaegerSmokeTest.COLLECTOR_CONFIG,
            JaegerSmokeTest.PROFILES_TO_DEBUG), Map.of("BACKEND_OTLP_GRPC_ENDPOINT", jaeger.otlpGrpcTarget(),
            "BACKEND_INSECURE", "true"), temp.resolve("collector.log"))) {
      sendAndReadBack(waitsApp(newestJdk(), collector.httpEndpoint(), null), jaeger, "through the Collector");
    }
  }

  @Test
  @Timeout(value = 2, unit = TimeUnit.MINUTES)
  void theDemoServicesSlowReportsShowTheirSocketWait() throws Exception {
    try (RealJaeger jaeger = RealJaeger.start(REPO, temp); OtlpCollector profiles = OtlpCollector.start()) {
      Path demoClasses = PATHS.buildDir().resolve("../../demo/target/classes").normalize();
      AppJvm app = base(newestJdk(), jaeger.otlpHttpEndpoint(), profiles, "spanflight-demo")
          .mainClass("io.spanflight.demo.service.DemoService").classpath(List.of(demoClasses)).start();
      List<String> sent = new ArrayList<>();
      try (app) {
        InferredSpansSmokeTest.awaitRecording(app);
        HttpClient client = HttpClient.newHttpClient();
        for (int i = 0; i < 3; i++) {
          String traceId = String.format("%032x", new java.math.BigInteger(127, new java.util.Random()));
          InferredSpansSmokeTest.send(client, app.baseUri(), "/report", traceId, true);
          sent.add(traceId);
        }
        for (String traceId : sent) { // while the app runs: at its exit, held spans leave without waiting
          StoredTrace trace = jaeger.awaitTrace(traceId, t -> !t.spansWithAttribute("spanflight.inferred").isEmpty(),
              "an inferred span in the demo's /report trace", ARRIVAL);
          List<SpanView> spans = views(trace);
          InferredSpanChecks.parentsHoldTheirChildren(spans);
          assertThat(spans).as("the socket wait of /report in %s", trace.describe())
              .anyMatch(v -> v.name().equals("wait socket read") && v.durationNanos() > 20_000_000L);
        }
      }
      System.out.println("jaeger, the demo's /report: " + jaeger.trace(sent.get(0)).orElseThrow().describe());
    }
  }

  private static AppJvm.Builder waitsApp(Jdk jdk, String endpoint, OtlpCollector profiles) {
    return base(jdk, endpoint, profiles, "jaeger-inferred").mainClass(WaitsApp.class)
        .systemProperty("otel.spanflight.methodtrace.filter", InferredSpansSmokeTest.STEP);
  }

  /** An app sending traces over OTLP/HTTP to {@code endpoint}, profiles to {@code profiles} (or along with the traces). */
  private static AppJvm.Builder base(Jdk jdk, String endpoint, OtlpCollector profiles, String service) {
    AppJvm.Builder builder = JaegerSmokeTest.tracesOverHttp(jdk, endpoint, service);
    if (profiles != null) { // Jaeger takes no profiles
      builder.systemProperty("otel.exporter.otlp.profiles.endpoint", profiles.endpoint())
          .systemProperty("otel.exporter.otlp.profiles.protocol", "grpc");
    }
    return builder;
  }

  private static void sendAndReadBack(AppJvm.Builder builder, RealJaeger jaeger, String where) throws Exception {
    List<Sent> sent = new ArrayList<>();
    AppJvm app = builder.start();
    try (app) {
      InferredSpansSmokeTest.awaitRecording(app);
      HttpClient client = HttpClient.newHttpClient();
      for (String path : List.of("/lock?ms=150", "/socket?ms=120", "/traced?ms=100")) {
        sent.add(InferredSpansSmokeTest.get(client, app.baseUri(), path, true));
        sent.add(InferredSpansSmokeTest.get(client, app.baseUri(), path, false));
      }
      for (Sent s : sent.stream().filter(Sent::sampled).collect(Collectors.toList())) {
        StoredTrace trace = jaeger.awaitTrace(s.traceId(), t -> !t.spansWithAttribute("spanflight.inferred").isEmpty(),
            "an inferred span (" + where + ")", ARRIVAL);
        check(s, views(trace), where + "\n" + trace.describe());
      }
    }
    for (Sent s : sent.stream().filter(x -> !x.sampled()).collect(Collectors.toList())) {
      assertThat(jaeger.trace(s.traceId())).as("the unsampled trace of %s, %s", s, where).isEmpty();
    }
    System.out.println("jaeger, inferred spans " + where + ": " + jaeger.trace(sent.get(4).traceId()).orElseThrow().describe());
  }

  private static void check(Sent s, List<SpanView> trace, String context) {
    InferredSpanChecks.parentsHoldTheirChildren(trace);
    SpanView server = trace.stream().filter(v -> v.kind().equals("SERVER")).findFirst().orElseThrow();
    assertThat(server.string("spanflight.cost.status")).as("costs, " + context).isEqualTo("ok");
    if (s.path().startsWith("/lock")) {
      InferredSpanChecks.waitOf(trace, "wait lock", "lock_contention", s.threadId(), s.waitedNanos());
    } else if (s.path().startsWith("/socket")) {
      InferredSpanChecks.waitOf(trace, "wait socket read", "socket_read", s.threadId(), s.waitedNanos());
    } else {
      SpanView step = InferredSpanChecks.waitOf(trace, "WaitsWork.step", "method_trace", s.threadId(), s.waitedNanos());
      assertThat(trace).as("the park inside the traced call, " + context)
          .anyMatch(v -> v.name().equals("wait park") && v.parentSpanId().equals(step.spanId()));
    }
  }

  private static List<SpanView> views(StoredTrace trace) {
    return trace.spans().stream().map(SpanView::of).collect(Collectors.toList());
  }
}
