package io.spanflight.smoke;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.spanflight.smoke.collector.OtlpCollector;
import io.spanflight.smoke.harness.AppJvm;
import io.spanflight.smoke.harness.LoadDriver;
import io.spanflight.smoke.profiles.CpuSamples;
import io.spanflight.smoke.profiles.StackSample;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Context attributes and unsampled traces, with the real agent: CPU samples of a request carry
 * the request's {@code http.request.method} and {@code http.route} (copied from its SERVER span);
 * with the agent sampling nothing, samples still link to their (unexported) span, unless
 * {@code otel.spanflight.link.unsampled=false}.
 */
class ContextAttributesSmokeTest extends SmokeTestBase {

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void burnSamplesCarryTheRequestsMethodAndRoute() throws Exception {
    List<StackSample> burn = run(null, null);
    long total = burn.stream().mapToLong(StackSample::count).sum();
    long withMethod = burn.stream().filter(s -> "GET".equals(s.attributes().get("http.request.method")))
        .mapToLong(StackSample::count).sum();
    long withRoute = burn.stream().filter(s -> "/burn".equals(s.attributes().get("http.route")))
        .mapToLong(StackSample::count).sum();
    long linked = burn.stream().filter(s -> s.link() != null).mapToLong(StackSample::count).sum();
    String counts = String.format(Locale.ROOT, "context attributes: %d burn samples, %d linked to a span, %d with"
        + " http.request.method=GET, %d with http.route=/burn", total, linked, withMethod, withRoute);
    System.out.println(counts);
    // a sample without attributes is either not linked (the join could not be sure) or linked
    // without them (the record found no local root): the counts say which
    assertThat(100.0 * withMethod / total).as(counts).isGreaterThanOrEqualTo(99.0);
    assertThat(100.0 * withRoute / total).as(counts).isGreaterThanOrEqualTo(99.0);
  }

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void samplesOfUnsampledTracesLinkUnlessSwitchedOff() throws Exception {
    List<StackSample> linkedRun = run("always_off", null);
    long total = linkedRun.stream().mapToLong(StackSample::count).sum();
    long linked = linkedRun.stream().filter(s -> s.link() != null).mapToLong(StackSample::count).sum();
    long traces = linkedRun.stream().filter(s -> s.link() != null).map(s -> s.link().traceId()).distinct().count();
    System.out.printf(Locale.ROOT, "unsampled, default: %d/%d burn samples linked, %d traces%n", linked, total, traces);
    assertThat(100.0 * linked / total).isGreaterThanOrEqualTo(99.0);
    assertThat(traces).as("one trace per request, not one shared id").isGreaterThan(10);

    List<StackSample> unlinkedRun = run("always_off", "false");
    long unlinkedTotal = unlinkedRun.stream().mapToLong(StackSample::count).sum();
    System.out.printf(Locale.ROOT, "unsampled, link.unsampled=false: %d burn samples, none may be linked%n", unlinkedTotal);
    assertThat(unlinkedRun).allMatch(s -> s.link() == null);
  }

  /** Runs /burn under load with the given sampler and link.unsampled (null: default); returns its burn samples. */
  private static List<StackSample> run(String sampler, String linkUnsampled) throws Exception {
    try (OtlpCollector collector = OtlpCollector.start()) {
      AppJvm.Builder builder = app(newestJdk(), collector, "context-attributes");
      if (sampler != null) {
        builder.systemProperty("otel.traces.sampler", sampler);
      }
      if (linkUnsampled != null) {
        builder.systemProperty("otel.spanflight.link.unsampled", linkUnsampled);
      }
      AppJvm app = builder.start();
      try (app) {
        LoadDriver.Result load = new LoadDriver(app.baseUri()).send("/burn?ms=50", 60, 2);
        assertThat(load.failed()).as(withLog(app, "requests: " + load)).isZero();
        boolean arrived = collector.await(
            c -> burnSamples(c.profileRequests()).stream().mapToLong(StackSample::count).sum() >= 30,
            Duration.ofSeconds(30));
        assertThat(arrived).as(withLog(app, "burn samples; " + received(collector))).isTrue();
      }
      return burnSamples(collector.profileRequests());
    }
  }

  private static List<StackSample> burnSamples(List<ExportProfilesServiceRequest> requests) {
    return cpuSamplesIn(requests, AttributionSmokeTest.BURN_METHOD);
  }

  /** The CPU samples with {@code method} on their stack. */
  static List<StackSample> cpuSamplesIn(List<ExportProfilesServiceRequest> requests, String method) {
    return CpuSamples.decodeAll(requests).stream().filter(sample -> sample.contains(method)).toList();
  }
}
