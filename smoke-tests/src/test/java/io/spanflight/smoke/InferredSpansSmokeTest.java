package io.spanflight.smoke;

import static org.assertj.core.api.Assertions.assertThat;

import io.spanflight.smoke.app.waits.WaitsApp;
import io.spanflight.smoke.collector.OtlpCollector;
import io.spanflight.smoke.harness.AppJvm;
import io.spanflight.smoke.harness.Jdk;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Inferred spans with the real agent, on every JDK of the suite: {@link WaitsApp}'s requests block
 * on a monitor, read a slow socket and call a traced method that parks, each for a known time on a
 * known thread, in traces whose ids the test chooses. Each sampled trace arrives with a child span
 * per wait (kind, thread, duration as the handler measured it), the traced call as a span with the
 * park nested in it, every child inside its parent, the costs on the SERVER span; the requests of
 * unsampled traces leave no span at all.
 */
class InferredSpansSmokeTest extends SmokeTestBase {
  static final String STEP = "io.spanflight.smoke.app.waits.WaitsWork::step";
  static final int EACH = 3;

  /** One request and what the app said of it. */
  record Sent(String path, String traceId, boolean sampled, long threadId, long waitedNanos) {}

  @ParameterizedTest(name = "{0}")
  @MethodSource("io.spanflight.smoke.SmokeTestBase#jdksUnderTest")
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void waitsAndTracedCallsBecomeChildSpansOfTheirRequest(Jdk jdk) throws Exception {
    try (OtlpCollector collector = OtlpCollector.start()) {
      AppJvm app = app(jdk, collector, "inferred-spans")
          .mainClass(WaitsApp.class)
          .systemProperty("otel.spanflight.span.costs", "true")
          .systemProperty("otel.spanflight.methodtrace.filter", STEP)
          .systemProperty("otel.bsp.schedule.delay", "500")
          .start();
      List<Sent> sent = new ArrayList<>();
      int appPort;
      try (app) {
        awaitRecording(app);
        appPort = app.port();
        HttpClient client = HttpClient.newHttpClient();
        for (int i = 0; i < EACH; i++) {
          sent.add(get(client, app.baseUri(), "/lock?ms=150", true));
          sent.add(get(client, app.baseUri(), "/socket?ms=120", true));
          sent.add(get(client, app.baseUri(), "/traced?ms=100", true));
          sent.add(get(client, app.baseUri(), "/lock?ms=150", false));
          sent.add(get(client, app.baseUri(), "/traced?ms=100", false));
        }
        boolean arrived = collector.await(c -> sent.stream().filter(Sent::sampled)
            .allMatch(s -> trace(c, s.traceId()).stream().anyMatch(SpanView::inferred)), Duration.ofSeconds(60));
        assertThat(arrived).as(withLog(app, "an inferred span in every sampled trace; " + received(collector))).isTrue();
        Thread.sleep(1_000); // a late batch of an unsampled trace would show now
      }
      for (Sent s : sent) {
        List<SpanView> trace = trace(collector, s.traceId());
        if (!s.sampled()) {
          assertThat(trace).as("spans of the unsampled trace of %s", s).isEmpty();
          continue;
        }
        InferredSpanChecks.parentsHoldTheirChildren(trace);
        SpanView server = trace.stream().filter(v -> v.kind().equals("SERVER")).findFirst().orElseThrow();
        assertThat(server.string("spanflight.cost.status")).as("costs on %s", server).isEqualTo("ok");
        assertThat(server.attributes()).doesNotContainKey("spanflight.inferred.dropped");
        if (s.path().startsWith("/lock")) {
          SpanView lock = InferredSpanChecks.waitOf(trace, "wait lock", "lock_contention", s.threadId(), s.waitedNanos());
          assertThat(lock.parentSpanId()).isEqualTo(server.spanId());
        } else if (s.path().startsWith("/socket")) {
          SpanView read = InferredSpanChecks.waitOf(trace, "wait socket read", "socket_read", s.threadId(), s.waitedNanos());
          assertThat(read.parentSpanId()).isEqualTo(server.spanId());
          assertThat(read.string("server.address")).as("the peer of %s", read).isEqualTo("127.0.0.1");
          assertThat(read.number("server.port")).as("the peer's port").isPositive().isNotEqualTo((long) appPort);
        } else {
          SpanView step = InferredSpanChecks.waitOf(trace, "WaitsWork.step", "method_trace", s.threadId(), s.waitedNanos());
          assertThat(step.parentSpanId()).isEqualTo(server.spanId());
          assertThat(step.string("code.function.name")).isEqualTo("io.spanflight.smoke.app.waits.WaitsWork.step");
          List<SpanView> parks = trace.stream().filter(v -> v.name().equals("wait park")).collect(Collectors.toList());
          assertThat(parks).as("the park inside the traced call, in %s", trace).isNotEmpty()
              .allSatisfy(park -> assertThat(park.parentSpanId()).isEqualTo(step.spanId()));
        }
      }
    }
  }

  /** Waits until Spanflight has started its recording: a wait before it is in no JFR event. */
  static void awaitRecording(AppJvm app) throws InterruptedException {
    assertThat(app.awaitLog(" started: timeline=", Duration.ofSeconds(30))).as(withLog(app, "Spanflight's start")).isTrue();
  }

  static List<SpanView> trace(OtlpCollector collector, String traceId) {
    return SpanView.of(collector.traceRequests()).stream().filter(s -> s.traceId().equals(traceId))
        .collect(Collectors.toList());
  }

  /** Sends a request of {@link WaitsApp} in a new trace of the test's choosing, sampled or not, and reads what the app measured. */
  static Sent get(HttpClient client, URI base, String path, boolean sampled) throws Exception {
    String traceId = String.format("%016x%016x", ThreadLocalRandom.current().nextLong(), ThreadLocalRandom.current().nextLong());
    String[] fields = send(client, base, path, traceId, sampled).trim().split(" ");
    return new Sent(path, traceId, sampled, Long.parseLong(fields[0].substring("thread=".length())),
        Long.parseLong(fields[1].substring("waited=".length())));
  }

  /** Sends a GET of {@code path} in trace {@code traceId} (a parent of the test's), sampled or not; the body. */
  static String send(HttpClient client, URI base, String path, String traceId, boolean sampled) throws Exception {
    String parent = String.format("%016x", ThreadLocalRandom.current().nextLong() | 1);
    HttpRequest request = HttpRequest.newBuilder(base.resolve(path))
        .header("traceparent", "00-" + traceId + "-" + parent + (sampled ? "-01" : "-00")).build();
    HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(path).isEqualTo(200);
    return response.body();
  }
}
