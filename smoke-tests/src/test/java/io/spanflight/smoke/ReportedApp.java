package io.spanflight.smoke;

import io.spanflight.smoke.harness.AppJvm;
import io.spanflight.smoke.harness.Jdk;
import io.spanflight.smoke.harness.SmokePaths;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The application a report is made from in {@link ReportBrowserSmokeTest}: how to start it with
 * the file exporter, which requests drive it, and which method each route burns its CPU in.
 * The demo service today; another app means adding one implementation here.
 */
interface ReportedApp {

  /** Starts the app with the javaagent and spanflight.jar writing OTLP files to {@code profiles}. */
  AppJvm start(Jdk jdk, SmokePaths paths, Path profiles);

  /** The request paths the load driver cycles through. */
  List<String> requests();

  /** Per {@code http.route}, the method where the requests of that route burn their CPU. */
  Map<String, String> burnMethodByRoute();

  /**
   * The README's demo service ({@code demo/}, built before this module): its two CPU-heavy
   * routes must show their own methods; the other three (allocation, lock, socket) are listed too.
   */
  static ReportedApp demo() {
    return new ReportedApp() {
      @Override
      public AppJvm start(Jdk jdk, SmokePaths paths, Path profiles) {
        Path demoClasses = paths.buildDir().resolve("../../demo/target/classes").normalize();
        return AppJvm.builder(jdk, paths)
            .serviceName("spanflight-demo")
            .mainClass("io.spanflight.demo.service.DemoService")
            .classpath(List.of(demoClasses))
            .systemProperty("otel.spanflight.exporter", "file")
            .systemProperty("otel.spanflight.file.directory", profiles.toString())
            .systemProperty("otel.spanflight.export.interval", "2s")
            .systemProperty("otel.spanflight.alloc.enabled", "true") // as bin/demo runs it
            // the execution sampler on every JDK: the page's CPU figures checked here are its
            // sample counts at 20 ms (the CPU-time sampler's profile, JDK 25's default, is the
            // report model's: ReportModelTest)
            .systemProperty("otel.spanflight.cpu.enabled", "true")
            .systemProperty("otel.spanflight.cputime.enabled", "false")
            .systemProperty("otel.traces.exporter", "none")
            .systemProperty("otel.metrics.exporter", "none")
            .systemProperty("otel.logs.exporter", "none")
            .start();
      }

      @Override
      public List<String> requests() {
        return List.of("/checkout?items=600", "/recommend?user=42", "/search?q=lamp", "/inventory?sku=7", "/report");
      }

      @Override
      public Map<String, String> burnMethodByRoute() {
        return Map.of(
            "/checkout", "io.spanflight.demo.service.PriceCalculator.computePrices",
            "/recommend", "io.spanflight.demo.service.RecommendationEngine.scoreCandidates");
      }
    };
  }
}
