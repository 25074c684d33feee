package io.spanflight.smoke;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.Span;
import io.spanflight.smoke.collector.OtlpCollector;
import io.spanflight.smoke.harness.AppJvm;
import io.spanflight.smoke.harness.Jdk;
import io.spanflight.smoke.harness.LoadDriver;
import io.spanflight.smoke.profiles.CpuSamples;
import io.spanflight.smoke.profiles.SpanLink;
import io.spanflight.smoke.profiles.StackSample;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The Grafana/Pyroscope mode: local-root spans carry {@code pyroscope.profile.id} = their span id,
 * and samples link to those spans.
 */
class GrafanaModeSmokeTest extends SmokeTestBase {

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void samplesLinkToLocalRootsThatCarryTheProfileId() throws Exception {
    Jdk jdk = newestJdk();
    try (OtlpCollector collector = OtlpCollector.start()) {
      AppJvm app = app(jdk, collector, "grafana-mode").systemProperty("otel.spanflight.link.local.root", "true").start();
      try (app) {
        LoadDriver.Result load = new LoadDriver(app.baseUri()).send("/burn?ms=50", 60, 2);
        assertThat(load.failed()).as(withLog(app, "requests: " + load)).isZero();
        boolean arrived =
            collector.await(c -> burnSamples(c).size() >= 20 && !markedRoots(c).isEmpty(), Duration.ofSeconds(30));
        assertThat(arrived).as(withLog(app, "burn samples and marked spans; " + received(collector))).isTrue();
      }
      Set<SpanLink> marked = markedRoots(collector);
      assertThat(marked).containsAll(serverSpans(collector, "/burn"));
      List<StackSample> burn = burnSamples(collector);
      long total = burn.stream().mapToLong(StackSample::count).sum();
      long linked = burn.stream().filter(s -> marked.contains(s.link())).mapToLong(StackSample::count).sum();
      System.out.printf(Locale.ROOT, "grafana mode: %d/%d burn samples link to a span with pyroscope.profile.id%n", linked, total);
      assertThat(100.0 * linked / total).isGreaterThanOrEqualTo(90.0);
    }
  }

  private static List<StackSample> burnSamples(OtlpCollector collector) {
    return CpuSamples.decodeAll(collector.profileRequests()).stream()
        .filter(s -> s.contains(AttributionSmokeTest.BURN_METHOD))
        .toList();
  }

  /** Spans whose pyroscope.profile.id attribute equals their own span id. */
  private static Set<SpanLink> markedRoots(OtlpCollector collector) {
    Set<SpanLink> marked = new HashSet<>();
    collector.traceRequests().forEach(request -> request.getResourceSpansList().forEach(rs -> rs.getScopeSpansList().forEach(ss -> {
      for (Span span : ss.getSpansList()) {
        for (KeyValue kv : span.getAttributesList()) {
          SpanLink link = SpanLink.of(span.getTraceId(), span.getSpanId());
          if (kv.getKey().equals("pyroscope.profile.id") && kv.getValue().getStringValue().equals(link.spanId())) {
            marked.add(link);
          }
        }
      }
    })));
    return marked;
  }
}
