package io.spanflight.demo.run;

import io.spanflight.demo.load.LoadGenerator;
import io.spanflight.demo.load.LoadResult;
import io.spanflight.demo.load.Route;
import io.spanflight.demo.service.DemoService;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * What {@code bin/demo} runs after the build: the {@link DemoService} in its own JVM with the
 * OpenTelemetry javaagent and spanflight.jar writing profiles to files, about 30 s of load with a
 * progress line, a SIGTERM so the last interval is flushed, then the HTML report.
 *
 * <p>Usage: {@code DemoRunner --agent <javaagent.jar> --extension <spanflight.jar> --target <dir>
 * [--seconds 30]}; profiles go to {@code <dir>/spanflight-demo/profiles}, the report to {@code
 * <dir>/spanflight-report/index.html}.
 */
public final class DemoRunner {
  /** The demo's load: a closed-loop client or more per endpoint (three contend on /inventory). */
  public static final List<Route> ROUTES = List.of(
      new Route("/checkout", 1),
      new Route("/search", 1),
      new Route("/inventory", 3),
      new Route("/report", 1),
      new Route("/recommend", 1));
  static final Duration PROGRESS_EVERY = Duration.ofSeconds(5);

  private DemoRunner() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> options = options(args);
    Path agent = existing(options, "--agent");
    Path extension = existing(options, "--extension");
    Path target = Path.of(require(options, "--target")).toAbsolutePath().normalize();
    Duration load = Duration.ofSeconds(Long.parseLong(options.getOrDefault("--seconds", "30")));
    Path work = target.resolve("spanflight-demo");
    Path profiles = work.resolve("profiles");
    Path html = target.resolve("spanflight-report").resolve("index.html");
    clear(profiles);

    Path java = ServiceJvm.Command.currentJava();
    TraceSink traces = TraceSink.start();
    ServiceJvm.Command command = serviceCommand(java, agent, extension, profiles)
        .systemProperty("otel.traces.exporter", "otlp")
        .systemProperty("otel.exporter.otlp.traces.protocol", "http/protobuf")
        .systemProperty("otel.exporter.otlp.traces.endpoint", traces.endpoint())
        // spans carry what they cost, and their waits as child spans (docs/inferred-spans.md)
        .systemProperty("otel.spanflight.span.costs", "true");
    System.out.println("Starting the demo service on JDK " + Runtime.version() + " with "
        + agent.getFileName() + " and " + extension.getFileName() + " (profiles to files, traces to a local sink)");
    ServiceJvm service = ServiceJvm.start(command.toList(), work.resolve("service.log"));
    LoadResult result;
    try (traces; service) { // the service stops first: its last spans still reach the sink
      System.out.println("Listening on 127.0.0.1:" + service.port() + "; load for " + load.toSeconds()
          + " s on " + String.join(" ", ROUTES.stream().map(r -> r.path() + " x" + r.clients()).toList()));
      result = new LoadGenerator(service.port(), ROUTES).run(load, PROGRESS_EVERY, new ProgressLine()::print);
      System.out.printf(Locale.ROOT, "Load done: %d requests (%.1f/s), %d errors%s%n", result.ok(),
          result.throughput(), result.failed(),
          result.firstFailure() == null ? "" : " (first: " + result.firstFailure() + ")");
      System.out.println("  per endpoint: " + new TreeMap<>(result.okByEndpoint()));
      System.out.println("Stopping the service (SIGTERM, so the last interval is written)...");
    }
    if (service.forciblyStopped()) {
      System.out.println("warning: the service did not stop within " + ServiceJvm.STOP_TIMEOUT.toSeconds()
          + " s and was killed; the last interval may be missing");
    }
    System.out.println("Traces: " + spanSummary(service.logFile()) + "; " + traces.requests() + " OTLP requests, "
        + traces.bytes() / 1024 + " KB to the local sink");
    long files = countProfileFiles(profiles);
    System.out.println("Profiles: " + files + " files in " + profiles);
    if (files == 0) {
      System.err.println("bin/demo: no profile files were written; service log: " + service.logFile()
          + "\n" + service.logTail(40));
      System.exit(1);
    }
    report(new ReportCommand(java, extension), profiles, html);
  }

  /** The service's command line: agent, extension, file exporter, allocation on, other signals off. */
  public static ServiceJvm.Command serviceCommand(Path java, Path agent, Path extension, Path profiles) {
    ServiceJvm.Command command = new ServiceJvm.Command(java, classpathOf(DemoService.class), DemoService.class.getName())
        .jvmArg("-Xmx256m")
        .jvmArg("-javaagent:" + agent)
        .systemProperty("otel.javaagent.extensions", extension.toString())
        .systemProperty("otel.service.name", "spanflight-demo")
        .systemProperty("otel.spanflight.exporter", "file")
        .systemProperty("otel.spanflight.file.directory", profiles.toString())
        .systemProperty("otel.spanflight.export.interval", "5s")
        // the demo shows allocation too (/search): a setting away, off by default
        .systemProperty("otel.spanflight.alloc.enabled", "true")
        .systemProperty("otel.traces.exporter", "none")
        .systemProperty("otel.metrics.exporter", "none")
        .systemProperty("otel.logs.exporter", "none");
    if (Runtime.version().feature() >= 22) {
      command.jvmArg("--enable-native-access=ALL-UNNAMED"); // Spanflight's JNI library, no warning
    }
    return command;
  }

  /** What the service's span-cost exporter said at shutdown: spans sent, inferred spans with them. */
  static String spanSummary(Path log) throws IOException {
    String prefix = "Spanflight span costs: ";
    try (var lines = Files.lines(log)) {
      return lines.filter(l -> l.contains(prefix)).reduce((a, b) -> b)
          .map(l -> l.substring(l.indexOf(prefix) + prefix.length())).orElse("no summary from the span-cost exporter");
    }
  }

  private static void report(ReportCommand reportCommand, Path profiles, Path html)
      throws IOException, InterruptedException {
    if (!reportCommand.available()) {
      System.out.println("(This spanflight.jar has no 'report' command yet, so no HTML report: the"
          + " profiles above are OTLP .binpb files, see the README's 'Viewing profiles'.)");
      return;
    }
    System.out.println("Writing the report: java -jar spanflight.jar report " + profiles + " --out " + html);
    int exit = reportCommand.run(profiles, html);
    if (exit != 0) {
      System.out.println("(The report command failed with exit code " + exit + "; the profiles are in "
          + profiles + ".)");
    }
  }

  /** The class path entry (directory or jar) that {@code type} was loaded from. */
  public static String classpathOf(Class<?> type) {
    try {
      return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    } catch (java.net.URISyntaxException e) {
      throw new IllegalStateException("cannot locate the classes of " + type.getName(), e);
    }
  }

  private static long countProfileFiles(Path profiles) throws IOException {
    try (Stream<Path> files = Files.list(profiles)) {
      return files.filter(p -> !p.getFileName().toString().startsWith(".")).count();
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
    Files.createDirectories(directory.getParent());
  }

  private static Map<String, String> options(String[] args) {
    Map<String, String> options = new TreeMap<>();
    for (int i = 0; i < args.length; i++) {
      if (!args[i].startsWith("--") || i + 1 == args.length) {
        usage("unexpected argument: " + args[i]);
      }
      options.put(args[i], args[++i]);
    }
    return options;
  }

  private static String require(Map<String, String> options, String name) {
    String value = options.get(name);
    if (value == null) {
      usage("missing " + name);
    }
    return value;
  }

  private static Path existing(Map<String, String> options, String name) {
    Path path = Path.of(require(options, name)).toAbsolutePath().normalize();
    if (!Files.isRegularFile(path)) {
      usage(name + " " + path + " does not exist (build first: ./mvnw -B install -DskipTests)");
    }
    return path;
  }

  private static void usage(String problem) {
    System.err.println("DemoRunner: " + problem + "\nusage: DemoRunner --agent <javaagent.jar>"
        + " --extension <spanflight.jar> --target <dir> [--seconds 30]");
    System.exit(2);
  }
}
