package io.spanflight.smoke;

import static org.assertj.core.api.Assertions.assertThat;

import io.spanflight.smoke.AccuracySmokeTest.PathUnderTest;
import io.spanflight.smoke.AccuracySmokeTest.Run;
import io.spanflight.smoke.collector.OtlpCollector;
import io.spanflight.smoke.harness.AppJvm;
import io.spanflight.smoke.harness.Jdk;
import io.spanflight.smoke.harness.Jdks;
import io.spanflight.smoke.harness.LoadDriver;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The core checks on every supported release of the OpenTelemetry javaagent the build fetches
 * ({@code spanflight.agent.versions.supported} in the smoke-tests pom, copied from Maven Central
 * into {@code target/agents/}), one app run per release on the newest JDK: {@link
 * AccuracySmokeTest}'s app and judge on three paths, the request thread ({@code platform}), an
 * executor ({@code fixed-pool}) and a virtual thread the app starts ({@code virtual-thread}).
 * Each path must have its CPU samples linked to its own span, the profiles must arrive over OTLP
 * gRPC and conform ({@link SmokeTestBase}), no thread may keep a context after a task, and the
 * extension must start and log no error.
 */
class AgentVersionsSmokeTest extends SmokeTestBase {
  static final List<String> CORE_PATHS = List.of("platform", "fixed-pool", "virtual-thread");

  /** The supported releases the build copied, oldest first. */
  static List<String> supportedVersions() {
    return versions("spanflight.agent.versions.supported");
  }

  @ParameterizedTest(name = "agent {0}")
  @MethodSource("supportedVersions")
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void coreChecksPassOnThisAgentRelease(String version) {
    Jdk jdk = jdk25();
    List<PathUnderTest> paths = AccuracySmokeTest.ALL_PATHS.stream()
        .filter(path -> CORE_PATHS.contains(path.name())).toList();
    Run run = AccuracySmokeTest.run(jdk, paths, AccuracySmokeTest.MIN_SAMPLES,
        builder -> builder.agentJar(agentJar(version)).serviceName("agent-" + version));
    String rendered = run.table().render("Core paths with agent " + version + " on " + jdk);
    System.out.println(rendered);
    String log = run.app().logText();
    assertThat(log).as(withLog(run.app(), "the agent that ran")).contains("opentelemetry-javaagent - version: " + version);
    assertThat(log).as(withLog(run.app(), "Spanflight started")).containsPattern("Spanflight \\S+ started: ");
    assertThat(log).as(withLog(run.app(), "errors and failures of the extension"))
        .doesNotContain("ERROR io.spanflight", "WARN io.spanflight - Spanflight background task",
            "could not deliver profiles", "Spanflight could not start", "NoSuchMethodError",
            "NoClassDefFoundError", "AbstractMethodError");
    assertThat(run.table().failing()).as(withLog(run.app(), rendered + "\n" + run.received()))
        .extracting(row -> row.path)
        .isEmpty();
    AccuracySmokeTest.checkNoLeaks(run);
  }

  /** The releases below the floor the build copied, to check Spanflight's refusal on. */
  static List<String> refusedVersions() {
    return versions("spanflight.agent.versions.refused");
  }

  /**
   * On a release below the oldest supported one, Spanflight logs one line that names that release
   * and the oldest supported one (the first of {@link #supportedVersions()}), and does nothing
   * else: no native library, no profiles. The agent and the app work as without it.
   */
  @ParameterizedTest(name = "agent {0}")
  @MethodSource("refusedVersions")
  @Timeout(value = 2, unit = TimeUnit.MINUTES)
  void anOlderReleaseIsRefusedInOneLineAndTheAppRunsOn(String version) throws Exception {
    String oldestSupported = supportedVersions().get(0);
    try (OtlpCollector collector = OtlpCollector.start()) {
      AppJvm app = app(jdk25(), collector, "agent-" + version).agentJar(agentJar(version))
          .systemProperty("otel.bsp.schedule.delay", "200")
          .start();
      try (app) {
        LoadDriver.Result load = new LoadDriver(app.baseUri()).send("/burn?ms=20", 10, 2);
        assertThat(load.failed()).as(withLog(app, "requests: " + load)).isZero();
        boolean arrived = collector.await(c -> serverSpans(c, "/burn").size() >= 10, Duration.ofSeconds(30));
        assertThat(arrived).as(withLog(app, "10 SERVER spans from the agent; " + received(collector))).isTrue();
      }
      List<String> ours = app.logText().lines()
          .filter(line -> !line.startsWith("# ")) // the command line names the extension jar
          .filter(line -> line.contains("io.spanflight") || line.contains("Spanflight"))
          .toList();
      assertThat(ours).as(withLog(app, "Spanflight's lines")).hasSize(1);
      assertThat(ours.get(0)).as(withLog(app, "the refusal"))
          .contains("WARN io.spanflight - Spanflight ", " is off: OpenTelemetry Java agent " + version + " ",
              "older than the oldest it supports, " + oldestSupported + " ", "the application runs on");
      assertThat(collector.profileRequests()).as(withLog(app, "profiles from a refused extension")).isEmpty();
    }
  }

  static Jdk jdk25() {
    return Jdks.installed().newest(25)
        .orElseThrow(() -> new IllegalStateException("the agent-version checks need a Java >= 25"));
  }

  static Path agentJar(String version) {
    return Path.of(System.getProperty("spanflight.agents.directory", PATHS.buildDir().resolve("agents").toString()))
        .resolve("opentelemetry-javaagent-" + version + ".jar");
  }

  static List<String> versions(String property) {
    String value = System.getProperty(property, "");
    List<String> versions = Arrays.stream(value.split(",")).map(String::trim).filter(v -> !v.isEmpty()).toList();
    if (versions.isEmpty()) {
      throw new IllegalStateException(property + " is not set; the smoke-tests build sets it");
    }
    return versions;
  }
}
