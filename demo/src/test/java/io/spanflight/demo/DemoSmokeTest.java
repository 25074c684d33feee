package io.spanflight.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.spanflight.demo.load.LoadGenerator;
import io.spanflight.demo.load.LoadResult;
import io.spanflight.demo.run.DemoRunner;
import io.spanflight.demo.run.ServiceJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The demo service with the real javaagent and spanflight.jar (file exporter, defaults otherwise):
 * each endpoint's signal must be in the exported files, in the endpoint's own method, and linked
 * to a SERVER span of that endpoint (the spans come from the agent's logging-otlp exporter).
 */
class DemoSmokeTest {
  private static final String SERVICE = "io.spanflight.demo.service.";
  private static Path agent;
  private static Path extension;
  private static Path buildDir;

  /** An endpoint, the sample type its signal lands in, and the method it must be in. */
  record Signal(String endpoint, String sampleType, String method) {}

  /**
   * The CPU profile at the defaults: of the CPU-time sampler ({@code cpu}) on JDK 25 and later on
   * Linux, else of the execution sampler ({@code samples}). The service runs on this JVM's Java.
   */
  static final String CPU = Runtime.version().feature() >= 25
      && System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux") ? "cpu" : "samples";

  static final List<Signal> SIGNALS = List.of(
      new Signal("/checkout", CPU, SERVICE + "PriceCalculator.computePrices"),
      new Signal("/search", "alloc_space", SERVICE + "CatalogSearch.buildResultPage"),
      new Signal("/inventory", "lock_contention", SERVICE + "InventoryLedger.reserveStock"),
      new Signal("/report", "socket_read", SERVICE + "ReportGenerator.fetchWarehouseSnapshot"),
      new Signal("/recommend", CPU, SERVICE + "RecommendationEngine.scoreOnPool"),
      new Signal("/recommend", CPU, SERVICE + "RecommendationEngine.scoreOnVirtualThread"));

  @BeforeAll
  static void jars() {
    agent = Path.of(System.getProperty("spanflight.agent.jar", "target/agent/opentelemetry-javaagent.jar"));
    extension = Path.of(System.getProperty("spanflight.extension.jar", "../extension/target/spanflight.jar"));
    buildDir = Path.of(System.getProperty("spanflight.build.directory", "target"));
    assertThat(agent).as("the javaagent (copied by this module's build)").isRegularFile();
    assertThat(extension).as("spanflight.jar (./mvnw -B install -DskipTests)").isRegularFile();
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void everyEndpointLeavesItsSignalInItsOwnSpans() throws Exception {
    Path work = Files.createDirectories(buildDir.resolve("demo-smoke"));
    Path profiles = work.resolve("profiles-" + System.currentTimeMillis());
    ServiceJvm.Command command = DemoRunner.serviceCommand(ServiceJvm.Command.currentJava(), agent, extension, profiles)
        .systemProperty("otel.spanflight.export.interval", "2s")
        .systemProperty("otel.traces.exporter", "logging-otlp")
        .systemProperty("otel.bsp.schedule.delay", "500");
    ServiceJvm service = ServiceJvm.start(command.toList(), profiles.resolveSibling(profiles.getFileName() + ".log"));
    LoadResult load;
    try (service) {
      load = new LoadGenerator(service.port(), DemoRunner.ROUTES).run(Duration.ofSeconds(12), Duration.ZERO, p -> {});
    }
    String log = service.logText();
    assertThat(load.failed()).as(load + "\n" + service.logTail(40)).isZero();
    assertThat(load.okByEndpoint()).as("every endpoint answered").containsOnlyKeys(
        "/checkout", "/search", "/inventory", "/report", "/recommend");

    List<ExportedSamples.Decoded> samples = ExportedSamples.read(profiles);
    Map<String, String> pathBySpan = LoggedServerSpans.pathBySpanId(log);
    assertThat(pathBySpan).as("SERVER spans in the log").isNotEmpty();
    for (Signal signal : SIGNALS) {
      List<ExportedSamples.Decoded> matching = samples.stream()
          .filter(s -> s.type().equals(signal.sampleType()) && s.frames().contains(signal.method()))
          .toList();
      long total = matching.stream().mapToLong(ExportedSamples.Decoded::value).sum();
      long inEndpoint = matching.stream()
          .filter(s -> s.spanId() != null && signal.endpoint().equals(pathBySpan.get(s.spanId())))
          .mapToLong(ExportedSamples.Decoded::value).sum();
      double share = total == 0 ? 0 : 100.0 * inEndpoint / total;
      System.out.printf(Locale.ROOT, "demo %-10s %-15s %-55s %d samples, value %d, %.1f %% in %s spans%n",
          signal.endpoint(), signal.sampleType(), signal.method(), matching.size(), total, share, signal.endpoint());
      assertThat(matching).as(signal + ": no such samples in " + profiles + "\n" + service.logTail(20)).isNotEmpty();
      assertThat(share).as(signal + ": share of the value linked to a SERVER span of " + signal.endpoint())
          .isGreaterThanOrEqualTo(90.0);
    }
  }
}
