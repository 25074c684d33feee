package io.spanflight.smoke;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.spanflight.smoke.app.BatchApp;
import io.spanflight.smoke.collector.OtlpCollector;
import io.spanflight.smoke.harness.AppJvm;
import io.spanflight.smoke.harness.Jdk;
import io.spanflight.smoke.profiles.CpuSamples;
import io.spanflight.smoke.profiles.StackSample;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A batch program ({@link BatchApp}: its {@code main} burns CPU for 3 s and returns) must exit on
 * its own with Spanflight inside, whatever the exporter, and the last interval must still go out
 * on the way: no thread that Spanflight starts, directly or through JFR, keeps the JVM alive.
 * The export interval is a minute, so every profile seen here was exported at shutdown.
 *
 * <p>Before the fix, the thread that {@code RecordingStream.startAsync()} creates ("JFR Event
 * Stream 1", not a daemon on JDK 25) kept every such JVM alive until it was killed.
 */
class ShortLivedAppSmokeTest extends SmokeTestBase {
  /** From main's return: the exporter's shutdown timeout (5 s) plus the last JFR flush, and slack. */
  static final Duration EXIT_WITHIN = Duration.ofSeconds(15);
  static final String CRUNCH = BatchApp.class.getName() + ".crunch";

  enum Exporter { OTLP_LIVE, OTLP_DEAD, FILE, NONE }

  static Stream<Arguments> jdksAndExporters() {
    List<Arguments> cases = new ArrayList<>();
    for (Jdk jdk : jdksUnderTest()) {
      for (Exporter exporter : Exporter.values()) {
        cases.add(Arguments.of(jdk, exporter));
      }
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{0}, {1}")
  @MethodSource("jdksAndExporters")
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void exitsWhenMainReturnsAndExportsTheLastInterval(Jdk jdk, Exporter exporter, @TempDir Path dir)
      throws Exception {
    try (OtlpCollector collector = OtlpCollector.start()) {
      AppJvm.Builder builder = app(jdk, collector, "batch-" + exporter.name().toLowerCase())
          .mainClass(BatchApp.class)
          .systemProperty("otel.spanflight.export.interval", "60s");
      switch (exporter) {
        case OTLP_DEAD:
          builder.systemProperty("otel.exporter.otlp.endpoint", "http://127.0.0.1:" + closedPort());
          break;
        case FILE:
          builder.systemProperty("otel.spanflight.exporter", "file")
              .systemProperty("otel.spanflight.file.directory", dir.toString());
          break;
        case NONE:
          builder.systemProperty("otel.spanflight.exporter", "none");
          break;
        default:
          break;
      }
      try (AppJvm app = builder.launch()) {
        awaitMainReturned(app);
        long returned = System.nanoTime();
        boolean exited = app.awaitExit(EXIT_WITHIN);
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - returned);

        assertThat(exited).as(withLog(app, "the JVM should exit within " + EXIT_WITHIN
            + " of main returning (" + jdk + ", exporter " + exporter + ")")).isTrue();
        assertThat(app.exitValue()).as(withLog(app, "exit code")).isZero();
        System.out.printf("%s, %s: the JVM exited %d s after main returned%n", jdk, exporter, seconds);
        if (exporter == Exporter.OTLP_LIVE) {
          assertThat(crunchSamples(collector.profileRequests()))
              .as(withLog(app, "CPU samples in " + CRUNCH + " delivered at shutdown; " + received(collector)))
              .isPositive();
        }
        if (exporter == Exporter.FILE) {
          assertThat(crunchSamples(readFiles(dir)))
              .as(withLog(app, "CPU samples in " + CRUNCH + " in the files written at shutdown"))
              .isPositive();
        }
      }
    }
  }

  private static void awaitMainReturned(AppJvm app) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (!app.logText().contains("MAIN RETURNS")) {
      if (System.nanoTime() - deadline > 0 || app.awaitExit(Duration.ofMillis(100))) {
        assertThat(app.logText()).as(withLog(app, "BatchApp should print MAIN RETURNS")).contains("MAIN RETURNS");
      }
    }
  }

  private static long crunchSamples(List<ExportProfilesServiceRequest> requests) {
    return CpuSamples.decodeAll(requests).stream()
        .filter(sample -> sample.contains(CRUNCH))
        .mapToLong(StackSample::count)
        .sum();
  }

  private static List<ExportProfilesServiceRequest> readFiles(Path dir) throws IOException {
    List<ExportProfilesServiceRequest> requests = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".binpb")).toList()) {
        requests.add(ExportProfilesServiceRequest.parseFrom(Files.readAllBytes(file)));
      }
    }
    return requests;
  }

  /** A port on which nothing listens. */
  private static int closedPort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
