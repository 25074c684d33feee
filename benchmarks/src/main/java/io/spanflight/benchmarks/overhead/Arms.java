package io.spanflight.benchmarks.overhead;

import io.spanflight.internal.config.SpanflightConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The catalogue of arms. Every arm exports its traces over OTLP http/protobuf to the {@link Sink}
 * (so the agent's own export cost is in every arm); metrics and logs are off except where a
 * profiler needs them.
 *
 * <ul>
 *   <li>{@code agent}: the OpenTelemetry javaagent alone, the baseline
 *   <li>{@code spanflight}: plus spanflight.jar at its defaults (CPU, lock, park, socket and file
 *       sources; profiles over OTLP to the sink every 10 s)
 *   <li>{@code spanflight-with-alloc}: the defaults plus the allocation source (the defaults until
 *       2026-12-06), measured against {@code spanflight}: what allocation profiling adds
 *   <li>{@code spanflight-all}: every source on: CPU time (JDK 25), native-method samples, method
 *       timing and tracing of one coarse method
 *   <li>{@code jfr-only}: a plain JFR recording of exactly the events Spanflight enables at its
 *       defaults, started by Spanflight, read by nobody: the floor of any JFR-based profiler
 *   <li>{@code capture-only}: Spanflight's span hooks, native records and timelines; no JFR, no export
 *   <li>{@code stream-only}: the same JFR events delivered by the JDK's {@code RecordingStream}
 *       and dropped (what Spanflight read JFR with until 2026-11-27; no chunk rotation since)
 *   <li>{@code reader-only}: the same JFR events read by Spanflight's own chunk reader (as
 *       Spanflight reads them), each event's thread and stack resolved, then dropped: no join
 *   <li>{@code spanflight-costs}: the defaults plus span costs ({@code otel.spanflight.span.costs=true}),
 *       measured against {@code spanflight}: what the cost attributes and per-route metrics add
 *   <li>{@code spanflight-cpu} (the execution sampler), {@code -cputime} (JDK 25's CPU-time
 *       sampler, {@code jdk.CPUTimeSample}, JEP 509), {@code -alloc}, {@code -lock}, {@code -park},
 *       {@code -socket}, {@code -file}: one source alone; {@code spanflight-off}: the jar loaded but
 *       switched off
 *   <li>{@code jfr-only-cpu}, {@code -alloc}, …: {@code jfr-only} with one source's events alone
 *       (measured against {@code jfr-only}, it tells what the other sources' events cost JFR itself)
 *   <li>{@code splunk-base} / {@code splunk}: the Splunk distribution, profiler off / on
 *       ({@code splunk.profiler.enabled=true}, its OTLP log export to the sink)
 *   <li>{@code pyroscope}: the OpenTelemetry javaagent plus Grafana's Pyroscope extension
 *       ({@code io.pyroscope:otel}, which starts async-profiler and uploads to the sink)
 *   <li>{@code splunk-memory}, {@code pyroscope-alloc}: the peers with allocation profiling on
 *       ({@code splunk.profiler.memory.enabled=true}; {@code pyroscope.profiler.alloc=512k}), which
 *       their defaults leave off and Spanflight's defaults have: the like-for-like comparison
 *   <li>{@code spanflight-other}: the defaults with another build of spanflight.jar (the harness's
 *       {@code --other-jar}, e.g. main's before a change), so that two builds run at the same time,
 *       each with its own load: {@code --arms spanflight --vs spanflight-other}. Not in the default run.
 *   <li>{@code jfr-only-twin}: exactly {@code jfr-only}, measured against {@code jfr-only} (an A/A
 *       pair): its spread is the harness's noise floor, what a difference between two arms must
 *       exceed before it means anything on this machine. Not in the default run.
 * </ul>
 */
final class Arms {
  /** Every arm, in the order of the report; a run measures each against its baseline. */
  static final List<String> ALL = List.of("jfr-only", "capture-only", "stream-only", "reader-only", "spanflight", "spanflight-off",
      "spanflight-cpu", "spanflight-alloc", "spanflight-lock", "spanflight-park", "spanflight-socket",
      "spanflight-file", "spanflight-cputime", "spanflight-all", "spanflight-c2", "spanflight-costs", "spanflight-with-alloc", "spanflight-opamp", "splunk", "pyroscope", "splunk-memory", "pyroscope-alloc");
  /**
   * The sources that have an arm of their own ({@code spanflight-<source>}, {@code
   * jfr-only-<source>}): the ones on by default (of the two CPU sources, the one this JVM has: see
   * docs/configuration.md) and allocation.
   */
  static final List<String> SOURCES = List.of("cpu", "cputime", "alloc", "lock", "park", "socket", "file");
  /**
   * Arms that run Spanflight in part: its diagnostic mode of the same name ({@value
   * SpanflightConfig#DIAGNOSTIC_MODE}, docs/configuration.md), given as a system property.
   */
  static final List<String> PARTS = List.of("jfr-only", "capture-only", "stream-only", "reader-only");
  /** An arm identical to {@code jfr-only}, measured against it. */
  static final String TWIN = "jfr-only-twin";
  static final String TRACED_METHOD = "io.spanflight.demo.service.ReportGenerator::generate";

  private Arms() {}

  /** Jars the arms need. */
  record Jars(Path agent, Path extension, Path splunkAgent, Path pyroscopeExtension, Path otherExtension) {
    Jars(Path agent, Path extension, Path splunkAgent, Path pyroscopeExtension) {
      this(agent, extension, splunkAgent, pyroscopeExtension, null);
    }
  }

  /** Another build of spanflight.jar, measured against the one under test. */
  static final String OTHER = "spanflight-other";

  static List<Arm> select(List<String> names, Jars jars, String sinkUrl, int jdkFeature) {
    List<Arm> arms = new ArrayList<>();
    for (String name : names) {
      arms.add(arm(name, jars, sinkUrl, jdkFeature));
    }
    return arms;
  }

  static Arm arm(String name, Jars jars, String sinkUrl, int jdkFeature) {
    List<String> common = new ArrayList<>(List.of(
        "-Dotel.service.name=overhead-demo",
        "-Dotel.exporter.otlp.protocol=http/protobuf",
        "-Dotel.exporter.otlp.endpoint=" + sinkUrl,
        "-Dotel.metrics.exporter=none",
        "-Dotel.logs.exporter=none"));
    if (jdkFeature >= 22) {
      common.add("--enable-native-access=ALL-UNNAMED"); // in every arm, so that all run alike
    }
    if (name.equals(TWIN)) {
      Arm same = arm("jfr-only", jars, sinkUrl, jdkFeature);
      return new Arm(name, "jfr-only", "the same as jfr-only (A/A: the harness's noise floor)", same.jvmArgs(), same.missing());
    }
    if (name.equals(OTHER)) {
      if (jars.otherExtension() == null) {
        throw new IllegalArgumentException("arm " + OTHER + " needs --other-jar <path of another spanflight.jar>");
      }
      return new Arm(name, "agent", "agent + " + jars.otherExtension() + ", defaults",
          with(common, "-javaagent:" + jars.agent(), "-Dotel.javaagent.extensions=" + jars.otherExtension()),
          missing(jars.agent(), jars.otherExtension()));
    }
    if (PARTS.contains(name)) {
      return new Arm(name, "agent", "agent + spanflight.jar as " + name + " (benchmark arm)",
          with(common, "-javaagent:" + jars.agent(), "-Dotel.javaagent.extensions=" + jars.extension(),
              "-D" + SpanflightConfig.DIAGNOSTIC_MODE + "=" + name),
          missing(jars.agent(), jars.extension()));
    }
    if (name.startsWith("jfr-only-") && SOURCES.contains(name.substring("jfr-only-".length()))) {
      String only = name.substring("jfr-only-".length());
      List<String> args = new ArrayList<>(List.of("-javaagent:" + jars.agent(),
          "-Dotel.javaagent.extensions=" + jars.extension(), "-D" + SpanflightConfig.DIAGNOSTIC_MODE + "=jfr-only"));
      args.addAll(thisSourceAlone(only));
      return new Arm(name, "agent", "agent + spanflight.jar as jfr-only, the " + only + " source's events alone",
          with(common, args.toArray(String[]::new)), missing(jars.agent(), jars.extension()));
    }
    if (name.startsWith("spanflight-") && SOURCES.contains(name.substring("spanflight-".length()))) {
      String only = name.substring("spanflight-".length());
      List<String> args = new ArrayList<>(List.of("-javaagent:" + jars.agent(),
          "-Dotel.javaagent.extensions=" + jars.extension()));
      args.addAll(thisSourceAlone(only));
      return new Arm(name, "agent", "agent + spanflight.jar, the " + only + " source alone",
          with(common, args.toArray(String[]::new)), missing(jars.agent(), jars.extension()));
    }
    switch (name) {
      case "agent":
        return new Arm(name, null, "OpenTelemetry javaagent alone", with(common, "-javaagent:" + jars.agent()),
            missing(jars.agent()));
      case "spanflight":
        return new Arm(name, "agent", "agent + spanflight.jar, defaults",
            with(common, "-javaagent:" + jars.agent(), "-Dotel.javaagent.extensions=" + jars.extension()),
            missing(jars.agent(), jars.extension()));
      case "spanflight-all":
        return new Arm(name, "agent", "agent + spanflight.jar, every source on",
            with(common, "-javaagent:" + jars.agent(), "-Dotel.javaagent.extensions=" + jars.extension(),
                "-Dotel.spanflight.cpu.enabled=true",
                "-Dotel.spanflight.cputime.enabled=true",
                "-Dotel.spanflight.native.enabled=true",
                "-Dotel.spanflight.methodtiming.filter=" + TRACED_METHOD,
                "-Dotel.spanflight.methodtrace.filter=" + TRACED_METHOD),
            missing(jars.agent(), jars.extension()));
      case "spanflight-c2":
        return new Arm(name, "agent", "agent + spanflight.jar, defaults, its background code compiled by C2 too",
            with(common, "-javaagent:" + jars.agent(), "-Dotel.javaagent.extensions=" + jars.extension(),
                "-Dotel.spanflight.jit.background.c2=true"),
            missing(jars.agent(), jars.extension()));
      case "spanflight-with-alloc":
        return new Arm(name, "spanflight", "agent + spanflight.jar, defaults plus the allocation source",
            with(common, "-javaagent:" + jars.agent(), "-Dotel.javaagent.extensions=" + jars.extension(),
                "-Dotel.spanflight.alloc.enabled=true"),
            missing(jars.agent(), jars.extension()));
      case "spanflight-costs":
        return new Arm(name, "spanflight", "agent + spanflight.jar, defaults plus span costs",
            with(common, "-javaagent:" + jars.agent(), "-Dotel.javaagent.extensions=" + jars.extension(),
                "-Dotel.spanflight.span.costs=true"),
            missing(jars.agent(), jars.extension()));
      case "spanflight-opamp":
        // the sink answers every request with an empty body, an empty ServerToAgent: an idle OpAMP server
        return new Arm(name, "spanflight", "agent + spanflight.jar, defaults plus fleet control polling an idle OpAMP server",
            with(common, "-javaagent:" + jars.agent(), "-Dotel.javaagent.extensions=" + jars.extension(),
                "-Dotel.spanflight.opamp.endpoint=" + sinkUrl + "/v1/opamp"),
            missing(jars.agent(), jars.extension()));
      case "spanflight-off":
        return new Arm(name, "agent", "agent + spanflight.jar, otel.spanflight.enabled=false (diagnostic)",
            with(common, "-javaagent:" + jars.agent(), "-Dotel.javaagent.extensions=" + jars.extension(),
                "-Dotel.spanflight.enabled=false"),
            missing(jars.agent(), jars.extension()));
      case "splunk-base":
        return new Arm(name, null, "Splunk OpenTelemetry javaagent, profiler off",
            with(common, "-javaagent:" + jars.splunkAgent(), "-Dsplunk.profiler.enabled=false"),
            missing(jars.splunkAgent()));
      case "splunk":
        return new Arm(name, "splunk-base", "Splunk javaagent, profiler on (its defaults)",
            with(common, "-javaagent:" + jars.splunkAgent(), "-Dsplunk.profiler.enabled=true",
                "-Dsplunk.profiler.logs-endpoint=" + sinkUrl + "/v1/logs"),
            missing(jars.splunkAgent()));
      case "splunk-memory":
        return new Arm(name, "splunk-base", "Splunk javaagent, profiler on with memory profiling (allocation samples)",
            with(common, "-javaagent:" + jars.splunkAgent(), "-Dsplunk.profiler.enabled=true",
                "-Dsplunk.profiler.memory.enabled=true",
                "-Dsplunk.profiler.logs-endpoint=" + sinkUrl + "/v1/logs"),
            missing(jars.splunkAgent()));
      case "pyroscope":
      case "pyroscope-alloc":
        List<String> pyroscope = new ArrayList<>(List.of("-javaagent:" + jars.agent(),
            "-Dotel.javaagent.extensions=" + jars.pyroscopeExtension(),
            "-Dotel.pyroscope.start.profiling=true",
            "-Dpyroscope.application.name=overhead-demo",
            "-Dpyroscope.server.address=" + sinkUrl));
        if (name.equals("pyroscope-alloc")) {
          pyroscope.add("-Dpyroscope.profiler.alloc=512k"); // async-profiler: a sample every 512 KB a thread allocates
        }
        return new Arm(name, "agent", name.equals("pyroscope")
                ? "agent + Pyroscope OTel extension (async-profiler, its defaults)"
                : "agent + Pyroscope OTel extension, allocation profiling on (512k)",
            with(common, pyroscope.toArray(String[]::new)), missing(jars.agent(), jars.pyroscopeExtension()));
      default:
        throw new IllegalArgumentException("unknown arm '" + name + "'; known: " + ALL + ", " + PARTS
            + ", " + TWIN + ", " + OTHER + ", spanflight-off, and spanflight-<source> or jfr-only-<source> for a source of " + SOURCES);
    }
  }

  /** The source {@code only} switched on (it may be off by default) and every other one off. */
  private static List<String> thisSourceAlone(String only) {
    return SOURCES.stream()
        .map(s -> "-Dotel.spanflight." + s + ".enabled=" + s.equals(only))
        .toList();
  }

  /** The same arm compared with another baseline (the harness's {@code --vs}). */
  static Arm against(Arm arm, String baseline) {
    return new Arm(arm.name(), baseline, arm.description(), arm.jvmArgs(), arm.missing());
  }

  /** The same arm with one more JVM option. */
  static Arm withFlag(Arm arm, String flag) {
    List<String> args = new ArrayList<>(arm.jvmArgs());
    args.add(0, flag);
    return new Arm(arm.name(), arm.baseline(), arm.description(), args, arm.missing());
  }

  private static List<String> with(List<String> common, String... specific) {
    List<String> args = new ArrayList<>(List.of(specific));
    args.addAll(common);
    return args;
  }

  private static String missing(Path... jars) {
    for (Path jar : jars) {
      if (!Files.isRegularFile(jar)) {
        return jar + " is missing";
      }
    }
    return null;
  }
}
