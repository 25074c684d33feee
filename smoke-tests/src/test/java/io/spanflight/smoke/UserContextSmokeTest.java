package io.spanflight.smoke;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.spanflight.smoke.collector.OtlpCollector;
import io.spanflight.smoke.harness.AppJvm;
import io.spanflight.smoke.harness.LoadDriver;
import io.spanflight.smoke.profiles.SpanLink;
import io.spanflight.smoke.profiles.StackSample;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The public API with the real agent: requests install {@code tenant=a} or {@code tenant=b} with
 * {@code SpanflightContext} and do their CPU work on a thread pool; the pool's samples carry the
 * request's tenant (the entries travel in the OpenTelemetry context) and link to its SERVER span.
 */
class UserContextSmokeTest extends SmokeTestBase {
  static final String DIGEST_METHOD = "io.spanflight.smoke.app.BurnWork.digestInsideRequest";

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void poolSamplesCarryTheRequestsTenantAndSpan() throws Exception {
    try (OtlpCollector collector = OtlpCollector.start()) {
      AppJvm app = app(newestJdk(), collector, "user-context").start();
      try (app) {
        LoadDriver.Result load = new LoadDriver(app.baseUri())
            .sendFor(Duration.ofSeconds(12), List.of("/tenant-a?ms=40", "/tenant-b?ms=40"), 2, Duration.ofSeconds(5), r -> {});
        assertThat(load.failed()).as(withLog(app, "requests: " + load)).isZero();
        boolean arrived = collector.await(
            c -> count(samples(c.profileRequests(), AttributionSmokeTest.BURN_METHOD)) >= 20
                && count(samples(c.profileRequests(), DIGEST_METHOD)) >= 20,
            Duration.ofSeconds(30));
        assertThat(arrived).as(withLog(app, "burn and digest samples; " + received(collector))).isTrue();
      }
      Set<SpanLink> spans = serverSpans(collector, "/tenant-");
      // on failure, the app log's last lines say why samples did not link (its join counters)
      check("tenant a", samples(collector.profileRequests(), AttributionSmokeTest.BURN_METHOD), "a", spans, app);
      check("tenant b", samples(collector.profileRequests(), DIGEST_METHOD), "b", spans, app);
    }
  }

  private static void check(String what, List<StackSample> samples, String tenant,
      Set<SpanLink> spans, AppJvm app) {
    long total = count(samples);
    long right = samples.stream().filter(s -> tenant.equals(s.attributes().get("tenant")))
        .mapToLong(StackSample::count).sum();
    long linked = samples.stream().filter(s -> s.link() != null && spans.contains(s.link()))
        .mapToLong(StackSample::count).sum();
    long unlinked = samples.stream().filter(s -> s.link() == null).mapToLong(StackSample::count).sum();
    System.out.printf(Locale.ROOT, "%s: %d pool samples, %d with tenant=%s, %d linked to a /tenant- SERVER span,"
        + " %d unlinked, %d linked elsewhere%n", what, total, right, tenant, linked, unlinked, total - linked - unlinked);
    assertThat(100.0 * right / total).as(withLog(app, what + " tenant")).isGreaterThanOrEqualTo(99.0);
    assertThat(100.0 * linked / total).as(withLog(app, what + " span")).isGreaterThanOrEqualTo(99.0);
  }

  private static List<StackSample> samples(
      List<ExportProfilesServiceRequest> requests, String method) {
    return ContextAttributesSmokeTest.cpuSamplesIn(requests, method);
  }

  private static long count(List<StackSample> samples) {
    return samples.stream().mapToLong(StackSample::count).sum();
  }
}
