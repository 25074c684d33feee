package io.spanflight.benchmarks.overhead;

import io.spanflight.demo.load.Route;
import io.spanflight.demo.run.ServiceJvm;
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
 * End-to-end overhead of Spanflight (README "Measured overhead"), on the demo service or on any
 * HTTP application jar ({@code --app}).
 *
 * <p>Every arm is measured in pairs with its baseline ({@code agent} unless {@code --vs} says
 * otherwise): both in fresh JVMs on the same JDK, <em>at the same time</em>, each under its own
 * closed-loop load with fixed concurrency (keep-alive clients on the loopback interface, each
 * sending its next request when the previous one is answered), warmed up together, then measured
 * over the same window ({@link PairRun}); which one starts first alternates by round. A costlier
 * arm shows up as more CPU per request of its JVM. The report gives per pair the ratios arm /
 * baseline, their median over the rounds with the range, and where the CPU went per group of
 * threads.
 *
 * <p>{@code --soak <seconds>} runs one arm (the first of {@code --arms}, default {@code
 * spanflight}) on the demo service for that long instead; see {@link SoakRun}.
 *
 * <p>Usage: {@code OverheadHarness [--root .] [--pairs 5] [--warmup 5] [--seconds 25]
 * [--arms spanflight,jfr-only,...] [--vs jfr-only] [--app app.jar --paths /a,/b --heap "-Xmx1g"
 * --port-argument --server.port=%d --clients-per-path 1] [--out benchmarks/target/overhead]
 * [--pin false] [--nmt false] [--profile false] [--jit false] [--tenure false] [--soak 600]
 * [--other-jar old/spanflight.jar]}.
 * {@code --other-jar} gives the {@code spanflight-other} arm its build of spanflight.jar (a change
 * against the build before it, both at once). {@code --pin true} puts each JVM of a pair on its own
 * half of the CPUs ({@link Placement}). {@code --nmt true} starts both JVMs of every pair with
 * {@value NativeMemory#FLAG} and reports, per area, what the arm commits beyond its baseline at the
 * end of the window ({@link NativeMemory}; tracking costs a little CPU in both arms alike).
 * {@code --profile true} samples both JVMs with async-profiler over the measured window and reports
 * the share of CPU samples with Spanflight frames per group of threads ({@link CpuProfiles}).
 * {@code --jit true} records every JIT compilation in both JVMs and prints the compile time by whose
 * code was compiled, before and in the measured window ({@link JitCompilations}). {@code --tenure true}
 * prints the bytes G1 promoted into the old generation in the window, a minute and per 1 000 requests
 * ({@link OldGenPromotion}).
 */
public final class OverheadHarness {
  static final List<Route> ROUTES = DemoTarget.ROUTES;

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
        root.resolve("benchmarks/target/peers/pyroscope-otel.jar"),
        options.otherJar);
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
    Target target = options.app == null
        ? new DemoTarget(options.demoClasses)
        : new AppTarget(options.app, options.heap, options.portArgument, options.appRoutes());
    List<Arm> arms = new ArrayList<>();
    Map<String, Arm> baselines = new LinkedHashMap<>();
    List<WindowRecording> recordings = new ArrayList<>();
    if (options.jit) {
      recordings.add(new JitCompilations(options.out.resolve("logs")));
    }
    if (options.tenure) {
      recordings.add(new OldGenPromotion(options.out.resolve("logs")));
    }
    for (Arm arm : Arms.select(options.arms, jars, sink.baseUrl(), jdk)) {
      if (arm.baseline() == null) {
        continue; // a baseline runs as the partner of the arms compared with it
      }
      if (options.vs != null && arm.baseline().equals("agent") && !arm.name().equals(options.vs)) {
        arm = Arms.against(arm, options.vs);
      }
      Arm baseline = Arms.arm(arm.baseline(), jars, sink.baseUrl(), jdk);
      if (options.nmt) {
        arm = Arms.withFlag(arm, NativeMemory.FLAG);
        baseline = Arms.withFlag(baseline, NativeMemory.FLAG);
      }
      for (WindowRecording recording : recordings) {
        for (String flag : recording.jvmArgs()) {
          arm = Arms.withFlag(arm, flag);
          baseline = Arms.withFlag(baseline, flag);
        }
      }
      if (arm.runnable() && baseline.runnable()) {
        arms.add(arm);
        baselines.put(arm.baseline(), baseline);
      } else {
        System.out.println("skipping arm " + arm.name() + ": " + (arm.runnable() ? baseline.missing() : arm.missing()));
      }
    }
    String command = "benchmarks/overhead " + String.join(" ", options.raw);
    Instant started = Instant.now();
    System.out.printf(Locale.ROOT, "%d rounds x %d pairs, both JVMs of a pair at once, %d s warm-up + %d s measured, JDK %s,"
            + " %s, closed loop, %d clients per JVM, load average %s%n",
        options.pairs, arms.size(), options.warmupSeconds, options.seconds, Runtime.version(), target.describe(),
        target.routes().stream().mapToInt(Route::clients).sum(), ProcStats.loadAverage());
    Placement[] placements = options.pin ? Placement.halves() : new Placement[] {Placement.ANYWHERE, Placement.ANYWHERE};
    if (options.pin) {
      System.out.println("pinned: the JVM started first in a pair on " + placements[0].describe() + ", the other on "
          + placements[1].describe() + " (so the arm changes CPUs every round); load drivers not pinned");
    }
    PairRun pairRun = new PairRun(target, sink, Duration.ofSeconds(options.warmupSeconds),
        Duration.ofSeconds(options.seconds), options.out.resolve("logs"), placements,
        options.profile ? new CpuProfiles(options.root) : null, recordings);
    List<RunResult> results = new ArrayList<>();
    for (int round = 0; round < options.pairs; round++) {
      for (int i = 0; i < arms.size(); i++) {
        Arm arm = arms.get((i + round) % arms.size());
        Arm baseline = baselines.get(arm.baseline());
        String pair = "round" + (round + 1) + "-" + arm.name();
        boolean armFirst = round % 2 == 1;
        List<RunResult> pairResults = armFirst ? pairRun.run(arm, baseline, pair) : pairRun.run(baseline, arm, pair);
        results.addAll(pairResults);
        for (RunResult result : pairResults) {
          System.out.printf(Locale.ROOT, "%-28s %-15s %7.1f req/s  p50 %6.2f ms  p99 %7.2f ms  cpu %6.3f ms/req  rss %5.0f MB  failed %d  load %s%n",
              pair, result.arm(), result.throughput(), result.p50Nanos() / 1e6, result.p99Nanos() / 1e6,
              result.cpuNanosPerRequest() / 1e6, result.meanRssBytes() / 1048576.0, result.failed(), result.loadAverage());
          if (options.profile) {
            System.out.println("  " + result.arm() + ": " + result.profile().describe());
          }
        }
        System.out.println("  " + arm.name() + " / " + baseline.name() + ": CPU per request x"
            + String.format(Locale.ROOT, "%.3f", OverheadReport.cpuRatio(results, arm, pair)));
      }
    }
    String report = OverheadReport.render(target, arms, results, options, command, started, Instant.now());
    System.out.println();
    System.out.println(report);
    Path file = options.out.resolve("overhead-" + started.toString().replace(':', '-') + ".md");
    Files.writeString(file, report);
    Files.writeString(options.out.resolve("overhead-" + started.toString().replace(':', '-') + ".csv"), OverheadReport.csv(results));
    System.out.println("written to " + file);
  }

  ServiceJvm startService(Arm arm, List<String> extraArgs, String label) throws IOException {
    Path log = options.out.resolve("logs").resolve(label + "-" + arm.name() + ".log");
    return new DemoTarget(options.demoClasses).startService(arm, extraArgs, log, Placement.ANYWHERE);
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
    String vs;
    Path app;
    List<String> heap = List.of("-Xms256m", "-Xmx1g");
    String portArgument = "--server.port=%d";
    List<String> paths = List.of("/");
    int clientsPerPath = 1;
    boolean pin;
    boolean nmt;
    boolean profile;
    boolean jit;
    boolean tenure;
    /** Another spanflight.jar, for the {@code spanflight-other} arm. */
    Path otherJar;
    List<String> raw;

    private static boolean bool(String key, String value) {
      return switch (value) {
        case "true" -> true;
        case "false" -> false;
        default -> throw new IllegalArgumentException(key + " " + value + ": expected true or false");
      };
    }

    List<Route> appRoutes() {
      return paths.stream().map(p -> new Route(p, clientsPerPath)).toList();
    }

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
          case "--vs" -> o.vs = value;
          case "--app" -> o.app = Path.of(value).toAbsolutePath().normalize();
          case "--heap" -> o.heap = List.of(value.trim().split("\\s+"));
          case "--port-argument" -> o.portArgument = value;
          case "--paths" -> o.paths = List.of(value.split(","));
          case "--clients-per-path" -> o.clientsPerPath = Integer.parseInt(value);
          case "--pin" -> o.pin = bool(key, value);
          case "--nmt" -> o.nmt = bool(key, value);
          case "--profile" -> o.profile = bool(key, value);
          case "--jit" -> o.jit = bool(key, value);
          case "--tenure" -> o.tenure = bool(key, value);
          case "--other-jar" -> o.otherJar = Path.of(value).toAbsolutePath().normalize();
          case "--arms" -> {
            o.arms = List.of(value.split(","));
            o.armsGiven = true;
          }
          default -> throw new IllegalArgumentException("unknown option " + key);
        }
      });
      if (o.soakSeconds > 0 && given.containsKey("--app")) {
        throw new IllegalArgumentException("--soak runs the demo service; --app applies to pairs only (got --app " + o.app + ")");
      }
      for (String pairsOnly : List.of("--jit", "--tenure", "--profile")) {
        if (o.soakSeconds > 0 && given.containsKey(pairsOnly)) {
          throw new IllegalArgumentException(pairsOnly + " applies to pairs only, not to --soak (got " + pairsOnly + " "
              + given.get(pairsOnly) + ")");
        }
      }
      if (o.app == null && given.containsKey("--heap")) {
        throw new IllegalArgumentException(
            "--heap applies to an --app only: the demo service runs with its own 256 MB heap (got --heap " + given.get("--heap") + ")");
      }
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
