package io.spanflight.smoke.demo;

import io.spanflight.smoke.harness.AppJvm;
import io.spanflight.smoke.harness.Jdk;
import io.spanflight.smoke.harness.Jdks;
import io.spanflight.smoke.harness.LoadDriver;
import io.spanflight.smoke.harness.SmokePaths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The README demo ({@code ./mvnw -B -q -pl smoke-tests exec:java} after a package build).
 *
 * <p>Starts {@link io.spanflight.smoke.app.BurnApp} with the javaagent and spanflight.jar
 * writing profiles to files, drives load for 20 s, stops the app gracefully so the last interval
 * is flushed, then decodes the files and prints which spans the CPU went to.
 */
public final class DemoMain {
  static final Duration LOAD_DURATION = Duration.ofSeconds(20);
  static final List<String> ENDPOINTS = List.of("/burn?ms=50", "/digest?ms=30");
  static final int CLIENTS = 2;

  private DemoMain() {}

  public static void main(String[] args) throws IOException {
    SmokePaths paths;
    try {
      paths = SmokePaths.fromSystemProperties().requireJars();
    } catch (IllegalStateException e) {
      exit(e.getMessage());
      return;
    }
    Jdk jdk = Jdks.installed().newest(17)
        .orElseThrow(() -> new IllegalStateException("no JDK 17 or newer found"));
    Path profiles = paths.buildDir().resolve("spanflight-demo").resolve("profiles");
    clear(profiles);

    System.out.println("Starting BurnApp on " + jdk + " with " + paths.agentJar().getFileName()
        + " and " + paths.extensionJar().getFileName());
    AppJvm app = AppJvm.builder(jdk, paths)
        .serviceName("spanflight-demo")
        .systemProperty("otel.spanflight.exporter", "file")
        .systemProperty("otel.spanflight.file.directory", profiles.toString())
        .systemProperty("otel.spanflight.export.interval", "5s")
        .systemProperty("otel.traces.exporter", "none")
        .systemProperty("otel.metrics.exporter", "none")
        .systemProperty("otel.logs.exporter", "none")
        .start();
    try (app) {
      System.out.println("Listening on " + app.baseUri() + "; " + CLIENTS + " clients call "
          + String.join(" and ", ENDPOINTS) + " for " + LOAD_DURATION.toSeconds() + " s");
      long start = System.nanoTime();
      LoadDriver.Result load = new LoadDriver(app.baseUri()).sendFor(LOAD_DURATION, ENDPOINTS,
          CLIENTS, Duration.ofSeconds(2), progress -> System.out.printf("  %3d s  requests: %s%n",
              Duration.ofNanos(System.nanoTime() - start).toSeconds(), progress));
      System.out.println("Load done (" + load + "); stopping the app with SIGTERM so it flushes...");
    }
    if (app.forciblyStopped()) {
      System.out.println("warning: the app did not stop within 20 s and was killed");
    }

    DemoReport report = DemoReport.read(profiles);
    report.print(System.out);
    if (report.samples() == 0) {
      exit("No CPU samples were written to " + profiles + ". App log: " + app.logFile());
    }
  }

  private static void clear(Path directory) throws IOException {
    if (Files.exists(directory)) {
      try (Stream<Path> files = Files.walk(directory)) {
        for (Path path : files.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(path);
        }
      }
    }
    Files.createDirectories(directory);
  }

  private static void exit(String message) {
    System.err.println("spanflight demo: " + message);
    System.exit(1);
  }
}
