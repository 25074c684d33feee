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
 * Swapping the app under test (for the demo service) means adding one implementation here.
 */
interface ReportedApp {

  /** Starts the app with the javaagent and spanflight.jar writing OTLP files to {@code profiles}. */
  AppJvm start(Jdk jdk, SmokePaths paths, Path profiles);

  /** The request paths the load driver cycles through. */
  List<String> requests();

  /** Per {@code http.route}, the method where the requests of that route burn their CPU. */
  Map<String, String> burnMethodByRoute();

  /** The smoke tests' {@link io.spanflight.smoke.app.BurnApp}. */
  static ReportedApp burnApp() {
    return new ReportedApp() {
      @Override
      public AppJvm start(Jdk jdk, SmokePaths paths, Path profiles) {
        return AppJvm.builder(jdk, paths)
            .serviceName("report-browser")
            .systemProperty("otel.spanflight.exporter", "file")
            .systemProperty("otel.spanflight.file.directory", profiles.toString())
            .systemProperty("otel.spanflight.export.interval", "2s")
            .systemProperty("otel.traces.exporter", "none")
            .systemProperty("otel.metrics.exporter", "none")
            .systemProperty("otel.logs.exporter", "none")
            .start();
      }

      @Override
      public List<String> requests() {
        return List.of("/burn?ms=50", "/digest?ms=30");
      }

      @Override
      public Map<String, String> burnMethodByRoute() {
        return Map.of(
            "/burn", "io.spanflight.smoke.app.BurnWork.burnCpuInsideRequest",
            "/digest", "io.spanflight.smoke.app.BurnWork.digestInsideRequest");
      }
    };
  }
}
