package io.spanflight.benchmarks.overhead;

import io.spanflight.demo.load.LoadGenerator;
import io.spanflight.demo.load.LoadResult;
import io.spanflight.demo.load.Route;
import io.spanflight.demo.run.ServiceJvm;
import io.spanflight.demo.service.DemoService;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * End-to-end overhead of Spanflight on the demo service (README "Measured overhead").
 *
 * <p>Each round starts the demo service once per arm, in an order that rotates from round to
 * round, each in a fresh JVM on the same JDK: warm-up load (not measured), then the measured
 * window. The load is closed-loop with fixed concurrency ({@link #ROUTES}: 8 keep-alive clients
 * on the loopback interface, each sending its next request when the previous one is answered), so
 * throughput is what the service sustains and a costlier arm shows up as fewer requests per
 * second and more CPU per request. Within a round each arm is compared with its baseline from the
 * same round (a pair); the report gives the median over the rounds, and the range.
 *
 * <p>{@code --soak <seconds>} runs one arm (the first of {@code --arms}, default {@code
 * spanflight}) for that long instead; see {@link SoakRun}.
 *
 * <p>Usage: {@code OverheadHarness [--root .] [--pairs 5] [--warmup 5] [--seconds 25]
 * [--arms agent,spanflight,...] [--out benchmarks/target/overhead] [--soak 600]}.
 */
public final class OverheadHarness {
  static final List<Route> ROUTES = List.of(
      new Route("/checkout", 2),
      new Route("/search", 2),
      new Route("/recommend", 2),
      new Route("/inventory", 1),
      new Route("/report", 1));

  private final Options options;
  private final Sink sink;
  private final Arms.Jars jars;

  private OverheadHarness(Options options, Sink sink) {
    this.options = options;
    this.sink = sink;
    Path root = options.root;
    this.jars = new Arms.Jars(
        root.resolve("demo/target/agent/opentelemetry-javaagent.jar"),
        root.resolve("extension/target/spanflight.jar"),
        root.resolve("benchmarks/target/peers/splunk-otel-javaagent.jar"),
        root.resolve("benchmarks/target/peers/pyroscope-otel.jar"));
  }

  public static void main(String[] args) throws Exception {
    Options options = Options.parse(args);
    Files.createDirectories(options.out);
    try (Sink sink = Sink.start()) {
      OverheadHarness harness = new OverheadHarness(options, sink);
      if (options.soakSeconds > 0) {
        harness.soak();
      } else {
        harness.pairs();
      }
    }
  }

  private void pairs() throws Exception {
    int jdk = Runtime.version().feature();
    List<Arm> arms = new ArrayList<>();
    for (Arm arm : Arms.select(options.arms, jars, sink.baseUrl(), jdk)) {
      if (arm.runnable()) {
        arms.add(arm);
      } else {
        System.out.println("skipping arm " + arm.name() + ": " + arm.missing());
      }
    }
    String command = "java -cp benchmarks/target/benchmarks.jar " + getClass().getName() + " "
        + String.join(" ", options.raw);
    Instant started = Instant.now();
    System.out.printf(Locale.ROOT, "%d rounds x %d arms, %d s warm-up + %d s measured each, JDK %s, closed loop, %d clients%n",
        options.pairs, arms.size(), options.warmupSeconds, options.seconds, Runtime.version(),
        ROUTES.stream().mapToInt(Route::clients).sum());
    List<RunResult> results = new ArrayList<>();
    for (int round = 0; round < options.pairs; round++) {
      for (int i = 0; i < arms.size(); i++) {
        Arm arm = arms.get((i + round) % arms.size());
        RunResult result = measure(arm, round);
        results.add(result);
        System.out.printf(Locale.ROOT, "round %d %-15s %7.1f req/s  p50 %6.2f ms  p99 %7.2f ms  cpu %6.3f ms/req  rss %5.0f MB  hwm %5.0f MB  failed %d  sink %s%n",
            round + 1, arm.name(), result.throughput(), result.p50Nanos() / 1e6, result.p99Nanos() / 1e6,
            result.cpuNanosPerRequest() / 1e6, result.meanRssBytes() / 1048576.0, result.peakRssBytes() / 1048576.0,
            result.failed(), result.exported());
      }
    }
    String report = OverheadReport.render(arms, results, options, command, started, Instant.now());
    System.out.println();
    System.out.println(report);
    Path file = options.out.resolve("overhead-" + started.toString().replace(':', '-') + ".md");
    Files.writeString(file, report);
    Files.writeString(options.out.resolve("overhead-" + started.toString().replace(':', '-') + ".csv"), OverheadReport.csv(results));
    System.out.println("written to " + file);
  }

  private RunResult measure(Arm arm, int round) throws Exception {
    sink.takeCounts();
    ServiceJvm service = startService(arm, List.of(), "round" + (round + 1));
    try (service) {
      LoadGenerator load = new LoadGenerator(service.port(), ROUTES);
      load.run(Duration.ofSeconds(options.warmupSeconds), Duration.ZERO, p -> {});
      long cpuBefore = ProcStats.cpuNanos(service.pid());
      LoadResult result;
      long peak;
      long meanRss;
      try (RssSampler rss = new RssSampler(service.pid(), 1000)) {
        result = load.run(Duration.ofSeconds(options.seconds), Duration.ZERO, p -> {});
        long cpu = ProcStats.cpuNanos(service.pid()) - cpuBefore;
        peak = ProcStats.peakRssBytes(service.pid());
        meanRss = rss.meanBytes();
        return new RunResult(arm.name(), round, result.ok(), result.failed(), result.throughput(),
            result.latencyQuantileNanos(0.5), result.latencyQuantileNanos(0.99),
            result.ok() == 0 ? Double.NaN : (double) cpu / result.ok(), meanRss, peak, exportedAfterStop(service));
      }
    }
  }

  /** Stops the service (so its final exports reach the sink) and returns what the sink got. */
  private Map<String, String> exportedAfterStop(ServiceJvm service) {
    service.stop();
    return sink.takeCounts();
  }

  ServiceJvm startService(Arm arm, List<String> extraArgs, String label) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(ServiceJvm.Command.currentJava().toString());
    command.addAll(List.of("-Xms256m", "-Xmx256m"));
    command.addAll(arm.jvmArgs());
    command.addAll(extraArgs);
    command.addAll(List.of("-cp", options.demoClasses.toString(), DemoService.class.getName()));
    Path log = options.out.resolve("logs").resolve(label + "-" + arm.name() + ".log");
    return ServiceJvm.start(command, log);
  }

  private void soak() throws Exception {
    String armName = options.armsGiven ? options.arms.get(0) : "spanflight";
    Arm arm = Arms.arm(armName, jars, sink.baseUrl(), Runtime.version().feature());
    if (!arm.runnable()) {
      throw new IllegalStateException("cannot soak " + armName + ": " + arm.missing());
    }
    new SoakRun(this, arm, options, sink).run();
  }

  /** Command-line options. */
  static final class Options {
    Path root = Path.of(".").toAbsolutePath().normalize();
    Path out;
    Path demoClasses;
    int pairs = 5;
    int warmupSeconds = 5;
    int seconds = 25;
    int soakSeconds;
    List<String> arms = Arms.ALL;
    boolean armsGiven;
    List<String> raw;

    static Options parse(String[] args) {
      Options o = new Options();
      o.raw = List.of(args);
      Map<String, String> given = new LinkedHashMap<>();
      for (int i = 0; i < args.length; i += 2) {
        if (!args[i].startsWith("--") || i + 1 >= args.length) {
          throw new IllegalArgumentException("expected --option value pairs, got " + Arrays.toString(args));
        }
        given.put(args[i], args[i + 1]);
      }
      given.forEach((key, value) -> {
        switch (key) {
          case "--root" -> o.root = Path.of(value).toAbsolutePath().normalize();
          case "--out" -> o.out = Path.of(value).toAbsolutePath().normalize();
          case "--demo-classes" -> o.demoClasses = Path.of(value).toAbsolutePath().normalize();
          case "--pairs" -> o.pairs = Integer.parseInt(value);
          case "--warmup" -> o.warmupSeconds = Integer.parseInt(value);
          case "--seconds" -> o.seconds = Integer.parseInt(value);
          case "--soak" -> o.soakSeconds = Integer.parseInt(value);
          case "--arms" -> {
            o.arms = List.of(value.split(","));
            o.armsGiven = true;
          }
          default -> throw new IllegalArgumentException("unknown option " + key);
        }
      });
      if (o.out == null) {
        o.out = o.root.resolve("benchmarks/target/overhead");
      }
      if (o.demoClasses == null) {
        o.demoClasses = o.root.resolve("demo/target/classes");
      }
      return o;
    }
  }
}
