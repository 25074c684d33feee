package io.spanflight.smoke;

import static org.assertj.core.api.Assertions.assertThat;

import io.spanflight.smoke.harness.AppJvm;
import io.spanflight.smoke.harness.Jdk;
import io.spanflight.smoke.harness.LoadDriver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pprof files of the file exporter, read by {@code go tool pprof} (the reader that ships with
 * Go): the demo service that {@code bin/demo} runs (allocation on, so several sample types) writes
 * {@code otlp,pprof}; for every pprof file, {@code -top} and {@code -tags} run, {@code -tags} lists
 * the span and route labels where the file has linked samples, and the total of its sample type,
 * of its linked samples and per {@code http.route} ({@code -raw}, summed exactly) equal what our
 * own report ({@code java -jar spanflight.jar report}) totals for the {@code .binpb} file written
 * with it from the same interval.
 */
class PprofToolSmokeTest extends SmokeTestBase {
  private static final String PPROF = ".pb.gz";

  @TempDir
  Path temp;

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void goToolPprofReadsEveryFileWithOurLabelsAndOurReportsTotals() throws Exception {
    GoPprof.requireGo();
    Jdk jdk = newestJdk();
    Path profiles = temp.resolve("profiles");
    AppJvm app = AppJvm.builder(jdk, PATHS)
        .serviceName("spanflight-demo")
        .mainClass("io.spanflight.demo.service.DemoService")
        .classpath(List.of(CollectorRoundTripSmokeTest.REPO.resolve("demo/target/classes")))
        .systemProperty("otel.spanflight.exporter", "file")
        .systemProperty("otel.spanflight.file.directory", profiles.toString())
        .systemProperty("otel.spanflight.file.format", "otlp,pprof")
        .systemProperty("otel.spanflight.export.interval", "5s")
        .systemProperty("otel.spanflight.alloc.enabled", "true") // as bin/demo runs it
        .systemProperty("otel.traces.exporter", "none")
        .systemProperty("otel.metrics.exporter", "none")
        .systemProperty("otel.logs.exporter", "none")
        .start();
    try (app) {
      new LoadDriver(app.baseUri()).sendFor(Duration.ofSeconds(8), ReportedApp.demo().requests(), 2,
          Duration.ofSeconds(5), progress -> {});
    } // SIGTERM: the last interval is written too
    List<Path> binpb = files(profiles, ".binpb");
    assertThat(binpb).as(withLog(app, "OTLP files written")).isNotEmpty();
    Map<String, Long> linkedPerType = new TreeMap<>();
    int pprofFiles = 0;
    for (Path otlp : binpb) {
      String base = otlp.getFileName().toString().replace(".binpb", "");
      List<Path> pprof = files(profiles, PPROF).stream()
          .filter(p -> p.getFileName().toString().startsWith(base + "-")).toList();
      ReportTotals report = reportOf(jdk, otlp);
      assertThat(pprof.size()).as("pprof files beside " + otlp.getFileName() + ": one per sample type the report"
          + " shows, " + report.all()).isEqualTo(report.all().size());
      for (Path file : pprof) {
        checkOne(file, report).forEach((type, linked) -> linkedPerType.merge(type, linked, Long::sum));
        pprofFiles++;
      }
    }
    assertThat(pprofFiles).as("pprof files read").isPositive();
    // JDK 25's CPU-time sampler writes cpu/nanoseconds, the execution sampler of older JDKs samples/count
    long cpu = linkedPerType.getOrDefault("cpu/nanoseconds", 0L) + linkedPerType.getOrDefault("samples/count", 0L);
    assertThat(cpu).as("CPU in spans over all files, " + linkedPerType).isPositive();
    assertThat(linkedPerType.getOrDefault("alloc_space/bytes", 0L)).as("allocation in spans, " + linkedPerType)
        .isPositive();
  }

  /** Runs the three views on one pprof file and compares it with the report; returns its linked total. */
  private static Map<String, Long> checkOne(Path file, ReportTotals report) throws Exception {
    String name = file.getFileName().toString();
    GoPprof.Raw raw = GoPprof.raw(file);
    String type = raw.sampleType();
    assertThat(type).as(name + ": the sample type/unit go tool pprof reads").matches("[a-z_]+/[a-z]+");
    assertThat(name).as("file named after its sample type").endsWith("-" + type.substring(0, type.indexOf('/'))
        + PPROF);
    String top = GoPprof.run("-top", file);
    assertThat(top).as(name + " -top").contains("Type: " + type.substring(0, type.indexOf('/')))
        .contains("Showing nodes accounting for");
    String tags = GoPprof.run("-tags", file);

    assertThat(raw.total()).as(name + ": the total go tool pprof reads = our report's, " + type)
        .isEqualTo(report.all().get(type));
    long linked = raw.totalsByLabel().getOrDefault("span_id", Map.of()).values().stream().mapToLong(v -> v).sum();
    assertThat(linked).as(name + ": the span_id-labelled total = the report's spans' total, " + type)
        .isEqualTo(report.linked().getOrDefault(type, 0L));
    assertThat(raw.totalsByLabel().getOrDefault("trace_id", Map.of()).values().stream().mapToLong(v -> v).sum())
        .as(name + ": trace_id labels on the same samples as span_id").isEqualTo(linked);
    assertThat(raw.totalsByLabel().getOrDefault("http.route", Map.of()))
        .as(name + ": totals per http.route = the report's per endpoint route, " + type)
        .isEqualTo(report.byRoute().getOrDefault(type, Map.of()));
    if (linked > 0) {
      assertThat(tags).as(name + " -tags lists the span and route labels")
          .contains(" span_id: Total ", " trace_id: Total ", " http.route: Total ", " http.request.method: Total ");
      assertThat(raw.totalsByLabel().get("span_id").keySet()).as(name + ": span ids, lower-case hex")
          .allMatch(id -> id.matches("[0-9a-f]{16}"));
    }
    return Map.of(type, linked);
  }

  /** Our report on one .binpb file, totalled. */
  private ReportTotals reportOf(Jdk jdk, Path otlp) throws Exception {
    Path html = temp.resolve("report-" + otlp.getFileName() + "/index.html");
    ReportCli.run(jdk, PATHS, otlp, html);
    return ReportTotals.read(html);
  }

  private static List<Path> files(Path dir, String suffix) throws Exception {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(p -> p.getFileName().toString().endsWith(suffix)).sorted().toList();
    }
  }
}
