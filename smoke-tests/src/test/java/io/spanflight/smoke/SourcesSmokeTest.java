package io.spanflight.smoke;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.spanflight.smoke.collector.OtlpCollector;
import io.spanflight.smoke.harness.AppJvm;
import io.spanflight.smoke.harness.Jdk;
import io.spanflight.smoke.harness.LoadDriver;
import io.spanflight.smoke.profiles.CpuSamples;
import io.spanflight.smoke.profiles.SpanLink;
import io.spanflight.smoke.profiles.StackSample;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every JFR source finds its samples inside the request that caused them: each endpoint of the
 * test app produces one signal in a method named after it, and the samples of that signal's
 * profile with that method on the stack must link to a SERVER span of that endpoint.
 */
class SourcesSmokeTest extends SmokeTestBase {
  private static final String SIGNAL = "io.spanflight.smoke.app.SignalWork.";
  private static final String TRACED = "io.spanflight.smoke.app.SignalWork::tracedInsideRequest";

  /** One endpoint, the method its signal comes from, and the sample type it lands in. */
  record Case(String path, String method, String sampleType, int minJdk) {}

  static final List<Case> CASES =
      List.of(
          new Case("/alloc", SIGNAL + "allocateInsideRequest", "alloc_space", 17),
          new Case("/lock", SIGNAL + "contendInsideRequest", "lock_contention", 17),
          new Case("/wait", SIGNAL + "waitInsideRequest", "lock_wait", 17),
          new Case("/park", SIGNAL + "parkInsideRequest", "park", 17),
          new Case("/socket", SIGNAL + "socketReadInsideRequest", "socket_read", 17),
          new Case("/file", SIGNAL + "fileReadInsideRequest", "file_read", 17),
          new Case("/traced", SIGNAL + "tracedInsideRequest", "method_trace", 17),
          new Case("/burn", "io.spanflight.smoke.app.BurnWork.burnCpuInsideRequest", "cpu", 25));

  @ParameterizedTest(name = "{0}")
  @MethodSource("io.spanflight.smoke.SmokeTestBase#jdksUnderTest")
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void everySourceLinksItsSamplesToTheRequestSpan(Jdk jdk) throws Exception {
    List<Case> cases = CASES.stream().filter(c -> jdk.feature() >= c.minJdk()).toList();
    try (OtlpCollector collector = OtlpCollector.start()) {
      AppJvm app =
          app(jdk, collector, "sources")
              .systemProperty("otel.spanflight.alloc.enabled", "true") // off by default
              .systemProperty("otel.spanflight.lock.threshold", "5ms")
              .systemProperty("otel.spanflight.park.threshold", "5ms")
              .systemProperty("otel.spanflight.socket.threshold", "5ms")
              .systemProperty("otel.spanflight.file.threshold", "0ms")
              .systemProperty("otel.spanflight.cputime.enabled", "true")
              .systemProperty("otel.spanflight.methodtrace.filter", TRACED)
              .systemProperty("otel.spanflight.methodtiming.filter", TRACED)
              .start();
      try (app) {
        LoadDriver driver = new LoadDriver(app.baseUri());
        for (Case c : cases) {
          LoadDriver.Result load = driver.send(c.path() + "?ms=30", 20, 2);
          assertThat(load.failed()).as(withLog(app, c.path() + ": " + load)).isZero();
        }
        boolean arrived =
            collector.await(
                col ->
                    cases.stream().allMatch(c -> !matching(col, c).isEmpty()) && methodTimings(col) > 0,
                Duration.ofSeconds(40));
        assertThat(arrived)
            .as(withLog(app, "samples of every source should arrive; missing: " + missing(collector, cases)))
            .isTrue();
      }

      for (Case c : cases) {
        Set<SpanLink> spans = serverSpans(collector, c.path());
        List<StackSample> samples = matching(collector, c);
        long total = samples.stream().mapToLong(StackSample::count).sum();
        long linked =
            samples.stream().filter(s -> spans.contains(s.link())).mapToLong(StackSample::count).sum();
        double share = 100.0 * linked / total;
        System.out.printf(
            Locale.ROOT,
            "source[%s] %-16s %5.1f %% of %d (%s) linked to a %s span%n",
            jdk.label(), c.sampleType(), share, total, samples.size() + " samples", c.path());
        assertThat(share).as(c.sampleType() + " samples in " + c.method() + " linked to " + c.path()).isGreaterThanOrEqualTo(90.0);
      }
      // JDK 25: JFR's jdk.MethodTiming; JDK 17 and 21: Spanflight's method hooks
      assertThat(methodTimings(collector)).as("method_invocations of the traced method").isPositive();
    }
  }

  private static List<StackSample> matching(OtlpCollector collector, Case c) {
    List<ExportProfilesServiceRequest> requests = collector.profileRequests();
    return CpuSamples.decodeAllOfType(requests, c.sampleType()).stream()
        .filter(s -> s.contains(c.method()))
        .toList();
  }

  private static long methodTimings(OtlpCollector collector) {
    return CpuSamples.decodeAllOfType(collector.profileRequests(), "method_invocations").stream()
        .filter(s -> s.contains(SIGNAL + "tracedInsideRequest"))
        .mapToLong(StackSample::count)
        .sum();
  }

  private static List<String> missing(OtlpCollector collector, List<Case> cases) {
    List<String> missing = new ArrayList<>();
    cases.stream().filter(c -> matching(collector, c).isEmpty()).forEach(c -> missing.add(c.sampleType()));
    return missing;
  }
}
