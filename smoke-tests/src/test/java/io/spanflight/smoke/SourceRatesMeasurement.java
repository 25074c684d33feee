package io.spanflight.smoke;

import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.opentelemetry.proto.profiles.v1development.Profile;
import io.opentelemetry.proto.profiles.v1development.Sample;
import io.spanflight.smoke.collector.OtlpCollector;
import io.spanflight.smoke.harness.AppJvm;
import io.spanflight.smoke.harness.Jdk;
import io.spanflight.smoke.harness.LoadDriver;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A measurement, not a test (surefire's default includes skip it): the event rate of every source
 * at its default setting on the reference workload, the test app's endpoints round-robin from 4
 * clients for 30 s, with every source switched on. Run on demand:
 *
 * <pre>./mvnw -B -pl smoke-tests verify -Dtest=SourceRatesMeasurement</pre>
 */
class SourceRatesMeasurement extends SmokeTestBase {
  private static final Duration LOAD = Duration.ofSeconds(30);
  private static final List<String> WORKLOAD = List.of("/burn?ms=20", "/digest?ms=20", "/alloc?ms=20",
      "/lock?ms=30", "/wait?ms=30", "/park?ms=30", "/socket?ms=30", "/file?ms=20", "/traced?ms=20");

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void measureEventRatesPerSource() throws Exception {
    Jdk jdk = newestJdk();
    try (OtlpCollector collector = OtlpCollector.start()) {
      AppJvm app = app(jdk, collector, "source-rates")
          .systemProperty("otel.spanflight.cputime.enabled", "true")
          .systemProperty("otel.spanflight.nativemethod.enabled", "true")
          .systemProperty("otel.spanflight.methodtrace.filter", "io.spanflight.smoke.app.SignalWork::tracedInsideRequest")
          .systemProperty("otel.spanflight.methodtiming.filter", "io.spanflight.smoke.app.SignalWork::tracedInsideRequest")
          .start();
      LoadDriver.Result load;
      try (app) {
        load = new LoadDriver(app.baseUri()).sendFor(LOAD, WORKLOAD, 4, Duration.ofSeconds(10),
            r -> System.out.println("  load so far: " + r));
        collector.await(c -> false, Duration.ofSeconds(4)); // the last interval
      }
      Map<String, long[]> perType = new TreeMap<>(); // events, linked events
      for (ExportProfilesServiceRequest request : collector.profileRequests()) {
        var d = request.getDictionary();
        for (Profile profile : request.getResourceProfiles(0).getScopeProfiles(0).getProfilesList()) {
          String type = d.getStringTable(profile.getSampleType().getTypeStrindex()) + "/"
              + d.getStringTable(profile.getSampleType().getUnitStrindex());
          long[] counts = perType.computeIfAbsent(type, t -> new long[2]);
          for (Sample sample : profile.getSamplesList()) {
            int events = Math.max(sample.getTimestampsUnixNanoCount(), 1);
            counts[0] += events;
            counts[1] += sample.getLinkIndex() != 0 ? events : 0;
          }
        }
      }
      double seconds = LOAD.toMillis() / 1000.0;
      System.out.printf(Locale.ROOT, "%nSource event rates, %s, %s, %d requests (%.0f/s), %d clients, all sources on:%n",
          jdk, LOAD, load.ok(), load.ok() / seconds, 4);
      System.out.println("| sample type | events | events/s | linked |");
      System.out.println("|---|---|---|---|");
      perType.forEach((type, c) -> System.out.printf(Locale.ROOT, "| %s | %d | %.1f | %.1f %% |%n",
          type, c[0], c[0] / seconds, c[0] == 0 ? 0.0 : 100.0 * c[1] / c[0]));
    }
  }
}
