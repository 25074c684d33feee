package io.spanflight.smoke;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.spanflight.smoke.collector.OtlpCollector;
import io.spanflight.smoke.harness.AppJvm;
import io.spanflight.smoke.harness.Jdk;
import io.spanflight.smoke.harness.Jdks;
import io.spanflight.smoke.harness.SmokePaths;
import io.spanflight.smoke.profiles.CpuSamples;
import io.spanflight.smoke.profiles.SpanLink;
import io.spanflight.smoke.profiles.StackSample;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * What every smoke test shares: the JDKs to run on, an app JVM wired to an in-process
 * collector, the spans the collector received, and failure messages that carry the app's log.
 * After each test, every profiles request that any collector started during it received must
 * pass {@link ProfileChecks#conformanceViolations}.
 */
abstract class SmokeTestBase {
  static final SmokePaths PATHS = SmokePaths.fromSystemProperties();

  @BeforeEach
  void forgetCollectorsOfEarlierTests() {
    OtlpCollector.takeStarted();
  }

  @AfterEach
  void everyReceivedProfilesRequestConforms() {
    for (OtlpCollector collector : OtlpCollector.takeStarted()) {
      List<ExportProfilesServiceRequest> requests = collector.profileRequests();
      for (int i = 0; i < requests.size(); i++) {
        int index = i;
        ProfileChecks.assertConforms(requests.get(i), () -> "in profiles request " + index + " of "
            + requests.size() + " received by the collector at " + collector.endpoint());
      }
    }
  }

  /**
   * The newest Java >= 25, Java 21 and Java 17, whichever are installed (21 is often a runtime
   * without javac: {@code bin/install-java21}); fails if none is, and under {@code CI=true}, where
   * {@code .ci/run} installs them, if any of the three is missing.
   */
  static List<Jdk> jdksUnderTest() {
    Jdks jdks = Jdks.installed();
    List<Jdk> chosen = new ArrayList<>();
    jdks.newest(25).ifPresent(chosen::add);
    jdks.feature(21).ifPresent(chosen::add);
    jdks.feature(17).ifPresent(chosen::add);
    if (chosen.isEmpty() || (chosen.size() < 3 && "true".equals(System.getenv("CI")))) {
      throw new IllegalStateException("smoke tests need a Java >= 25, 21 or 17 (under CI=true all"
          + " three; bin/install-java21 installs 21); scanned /usr/lib/jvm, $JAVA_HOME and"
          + " java.home and found only " + jdks.all());
    }
    return chosen;
  }

  /**
   * The newest and the oldest of {@link #jdksUnderTest()} (25 and 17), for long tests of code that
   * is the same Java on every JDK (fleet control): what differs between JDKs shows at the ends.
   */
  static List<Jdk> newestAndOldestJdk() {
    List<Jdk> all = jdksUnderTest();
    return all.size() <= 2 ? all : List.of(all.get(0), all.get(all.size() - 1));
  }

  /** The newest installed JDK >= 17, for tests that need one JVM only. */
  static Jdk newestJdk() {
    return Jdks.installed().newest(17)
        .orElseThrow(() -> new IllegalStateException("no JDK >= 17 found"));
  }

  /**
   * An app JVM with the javaagent and spanflight.jar, exporting traces and profiles to {@code
   * collector} over gRPC every 2 s; metrics and logs off.
   */
  /**
   * JFR's execution sampler ({@code jdk.ExecutionSample}) as the CPU source on every JDK, for the
   * tests about that event itself (JDK 25's default CPU source is the CPU-time sampler).
   */
  static AppJvm.Builder executionSampler(AppJvm.Builder builder) {
    return builder.systemProperty("otel.spanflight.cpu.enabled", "true")
        .systemProperty("otel.spanflight.cputime.enabled", "false");
  }

  static AppJvm.Builder app(Jdk jdk, OtlpCollector collector, String serviceName) {
    return AppJvm.builder(jdk, PATHS)
        .serviceName(serviceName)
        .systemProperty("otel.exporter.otlp.endpoint", collector.endpoint())
        .systemProperty("otel.exporter.otlp.protocol", "grpc")
        .systemProperty("otel.metrics.exporter", "none")
        .systemProperty("otel.logs.exporter", "none")
        .systemProperty("otel.spanflight.export.interval", "2s");
  }

  /** The SERVER spans received whose {@code url.path} starts with {@code pathPrefix}. */
  static Set<SpanLink> serverSpans(OtlpCollector collector, String pathPrefix) {
    return spans(collector, span -> span.getKind() == Span.SpanKind.SPAN_KIND_SERVER
        && urlPath(span).startsWith(pathPrefix));
  }

  /** The spans received that {@code which} accepts. */
  static Set<SpanLink> spans(OtlpCollector collector, Predicate<Span> which) {
    Set<SpanLink> spans = new HashSet<>();
    collector.traceRequests().forEach(request -> {
      for (ResourceSpans resource : request.getResourceSpansList()) {
        for (ScopeSpans scope : resource.getScopeSpansList()) {
          for (Span span : scope.getSpansList()) {
            if (which.test(span)) {
              spans.add(SpanLink.of(span.getTraceId(), span.getSpanId()));
            }
          }
        }
      }
    });
    return spans;
  }

  /** One line on what the collector received, for failure messages. */
  static String received(OtlpCollector collector) {
    List<StackSample> samples = CpuSamples.decodeAll(collector.profileRequests());
    return "received " + collector.profileRequests().size() + " profile requests with "
        + samples.stream().mapToLong(StackSample::count).sum() + " CPU samples ("
        + samples.stream().filter(StackSample::isLinked).mapToLong(StackSample::count).sum()
        + " linked), " + collector.traceRequests().size() + " trace requests with "
        + serverSpans(collector, "/").size() + " SERVER spans";
  }

  /**
   * Fails on anything {@code -Xcheck:jni} reported in the app's log: a warning or fatal error in a
   * native method, or local references beyond the declared capacity.
   */
  static void assertNoJniWarnings(AppJvm app) {
    assertThat(app.logText()).as(withLog(app, "JNI problems reported by -Xcheck:jni"))
        .doesNotContain("WARNING in native method")
        .doesNotContain("FATAL ERROR in native method")
        .doesNotContain("JNI local refs");
  }

  /** A failure description: {@code message}, then the tail of the app's log. */
  static Supplier<String> withLog(AppJvm app, String message) {
    return () -> message + "\n" + app.logTail(60);
  }

  private static String urlPath(Span span) {
    return span.getAttributesList().stream()
        .filter(attribute -> attribute.getKey().equals("url.path"))
        .map(attribute -> attribute.getValue().getStringValue())
        .findFirst()
        .orElse("");
  }
}
