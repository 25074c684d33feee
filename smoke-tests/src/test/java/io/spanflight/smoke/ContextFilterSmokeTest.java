package io.spanflight.smoke;

import static org.assertj.core.api.Assertions.assertThat;

import io.spanflight.smoke.collector.OtlpCollector;
import io.spanflight.smoke.harness.AppJvm;
import io.spanflight.smoke.harness.LoadDriver;
import io.spanflight.smoke.profiles.CpuSamples;
import io.spanflight.smoke.profiles.StackSample;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code otel.spanflight.context.filter=hasContext}: only samples taken inside a span are exported. */
class ContextFilterSmokeTest extends SmokeTestBase {

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void onlySamplesInsideSpansAreExported() throws Exception {
    try (OtlpCollector collector = OtlpCollector.start()) {
      AppJvm app =
          app(newestJdk(), collector, "context-filter").systemProperty("otel.spanflight.context.filter", "hasContext").start();
      try (app) {
        LoadDriver.Result load = new LoadDriver(app.baseUri()).send("/burn?ms=50", 60, 2);
        assertThat(load.failed()).as(withLog(app, "requests: " + load)).isZero();
        boolean arrived =
            collector.await(
                c -> CpuSamples.decodeAll(c.profileRequests()).stream()
                        .filter(s -> s.contains(AttributionSmokeTest.BURN_METHOD))
                        .mapToLong(StackSample::count)
                        .sum() >= 20,
                Duration.ofSeconds(30));
        assertThat(arrived).as(withLog(app, "burn samples; " + received(collector))).isTrue();
      }
      List<StackSample> all = CpuSamples.decodeAll(collector.profileRequests());
      assertThat(all).as("CPU samples exported").isNotEmpty();
      assertThat(all).as("samples without a span link").allMatch(StackSample::isLinked);
    }
  }
}
