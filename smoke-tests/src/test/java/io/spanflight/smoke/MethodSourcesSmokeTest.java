package io.spanflight.smoke;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.spanflight.smoke.app.methods.MethodApp;
import io.spanflight.smoke.collector.OtlpCollector;
import io.spanflight.smoke.harness.AppJvm;
import io.spanflight.smoke.harness.Jdk;
import io.spanflight.smoke.profiles.SpanLink;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code methodtiming} and {@code methodtrace} give the calls the application made, whichever JDK
 * runs it: JFR's {@code jdk.MethodTiming}/{@code jdk.MethodTrace} on JDK 25, Spanflight's bytecode
 * hooks on JDK 17 and 21. One filter with a part of each kind (class, class::method, ::method,
 * annotation) selects one method each; {@link MethodApp} measures every call itself. Per selected
 * method: invocations and traced calls equal the calls made, times between the calls' parked time
 * and the app's own measure around them (and equal to each other),
 * each traced call linked to its request's SERVER span with the method as leaf frame; methods next
 * to them that the filter leaves out have no samples.
 */
class MethodSourcesSmokeTest extends SmokeTestBase {
  static final String WORK = "io.spanflight.smoke.app.methods.MethodWork$";
  static final String PING = WORK + "Probe.ping";
  static final String FILTER = String.join(";",
      WORK + "ByClass",
      WORK + "ByMethod::selected",
      "::uniquelyNamedMethodWork",
      "@io.spanflight.smoke.app.methods.Timed",
      WORK + "Probe::ping",
      "::noSuchMethodAnywhere");
  static final List<String> SELECTED = List.of(
      WORK + "ByClass.work", WORK + "ByMethod.selected", WORK + "ByName.uniquelyNamedMethodWork", WORK + "ByAnnotation.work");
  static final List<String> LEFT_OUT = List.of(WORK + "ByMethod.unselected", WORK + "ByAnnotation.notAnnotated");
  static final int REQUESTS = 3;
  static final int CALLS_PER_REQUEST = 4;
  static final long MICROS = 5000;

  @ParameterizedTest(name = "{0}")
  @MethodSource("io.spanflight.smoke.SmokeTestBase#jdksUnderTest")
  @Timeout(value = 2, unit = TimeUnit.MINUTES)
  void everyKindOfFilterGivesExactlyTheCallsMade(Jdk jdk) throws Exception {
    try (OtlpCollector collector = OtlpCollector.start()) {
      AppJvm app = app(jdk, collector, "methods")
          .mainClass(MethodApp.class)
          .systemProperty("otel.spanflight.methodtiming.filter", FILTER)
          .systemProperty("otel.spanflight.methodtrace.filter", FILTER)
          .start();
      try (app;
          AppControl control = new AppControl(app.baseUri(), jdk.home())) {
        awaitPingSeen(collector, control, app);
        for (int i = 0; i < REQUESTS; i++) {
          control.get("/work?calls=" + CALLS_PER_REQUEST + "&us=" + MICROS);
        }
        Map<String, long[]> measured = measured(control.get("/stats"));
        awaitPingSeen(collector, control, app); // after the work: everything before it has arrived
        boolean spansArrived = collector.await(c -> serverSpans(c, "/work").size() >= REQUESTS, Duration.ofSeconds(30));
        assertThat(spansArrived).as(withLog(app, "the SERVER spans of /work: " + received(collector))).isTrue();

        MethodProfiles profiles = new MethodProfiles(collector.profileRequests());
        Set<SpanLink> spans = serverSpans(collector, "/work");
        for (String method : SELECTED) {
          long calls = measured.get(method)[0];
          long nanos = measured.get(method)[1];
          MethodProfiles.Totals invocations = profiles.of("method_invocations", method);
          MethodProfiles.Totals time = profiles.of("method_time", method);
          MethodProfiles.Totals traces = profiles.of("method_trace", method);
          System.out.printf(Locale.ROOT, "methods[%s] %-70s app %d calls %.2f ms; invocations %d, time %.2f ms,"
                  + " traced %d calls %.2f ms in %d spans, stack depth %d%n",
              jdk.label(), method, calls, nanos / 1e6, invocations.calls, time.value / 1e6, traces.calls,
              traces.value / 1e6, traces.callsBySpan.size(), traces.deepestStack);
          assertThat(calls).isEqualTo(REQUESTS * CALLS_PER_REQUEST);
          assertThat(invocations.calls).as(withLog(app, method + " invocations")).isEqualTo(calls);
          assertThat(traces.calls).as(withLog(app, method + " traced calls")).isEqualTo(calls);
          // each call parks at least MICROS; the profiler's clock runs inside the app's, which also
          // holds the instrumentation's own entry and exit (milliseconds on a cold, loaded machine)
          long atLeast = calls * MICROS * 1000;
          assertThat(time.value).as(method + " method_time: at least the calls' parked time, at most the app's")
              .isBetween((long) (atLeast * 0.99), (long) (nanos * 1.01));
          assertThat(traces.value).as(method + " method_trace: at least the calls' parked time, at most the app's")
              .isBetween((long) (atLeast * 0.99), (long) (nanos * 1.01));
          assertThat((double) traces.value).as(method + " method_trace and method_time measure the same calls")
              .isCloseTo(time.value, within(time.value * 0.01));
          assertThat(traces.unlinkedCalls).as(method + " traced calls without a span").isZero();
          assertThat(traces.deepestStack).as(method + " traced calls with their callers below the leaf").isGreaterThan(1);
          assertThat(spans).as("SERVER spans of /work").containsAll(traces.callsBySpan.keySet());
          assertThat(traces.callsBySpan).as(method + " traced calls per request span").hasSize(REQUESTS)
              .allSatisfy((span, n) -> assertThat(n).isEqualTo(CALLS_PER_REQUEST));
        }
        for (String method : LEFT_OUT) {
          for (String type : List.of("method_invocations", "method_time", "method_trace")) {
            assertThat(profiles.of(type, method).calls).as(type + " of " + method + ", not in the filter").isZero();
          }
        }
        // JDK 25: a MethodTiming event of a method not called yet has no average (it overflowed)
        assertThat(app.logText()).as(withLog(app, "errors while reading method events"))
            .doesNotContain("ArithmeticException");
        if (jdk.feature() < 25) {
          assertThat(app.logText().lines().filter(line -> line.contains("match no method")))
              .as(withLog(app, "one line on the filter parts that matched nothing"))
              .hasSize(1)
              .allSatisfy(line -> assertThat(line).contains("::noSuchMethodAnywhere"));
        }
      }
    }
  }

  /** Calls the probe until a new traced and timed call of it has arrived. */
  static void awaitPingSeen(OtlpCollector collector, AppControl control, AppJvm app) throws Exception {
    awaitPingSeen(collector, control, app, true);
  }

  /** Calls the probe until a new timed (and if {@code traced}, traced) call of it has arrived. */
  static void awaitPingSeen(OtlpCollector collector, AppControl control, AppJvm app, boolean traced) throws Exception {
    MethodProfiles before = new MethodProfiles(collector.profileRequests());
    long tracedBefore = before.of("method_trace", PING).calls;
    long timed = before.of("method_invocations", PING).calls;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
    while (System.nanoTime() < deadline) {
      control.get("/probe");
      boolean seen = collector.await(
          c -> {
            MethodProfiles now = new MethodProfiles(c.profileRequests());
            return (!traced || now.of("method_trace", PING).calls > tracedBefore)
                && now.of("method_invocations", PING).calls > timed;
          },
          Duration.ofSeconds(5));
      if (seen) {
        return;
      }
    }
    throw new AssertionError(withLog(app, "the probe's calls never arrived as method samples; arrived: "
        + new MethodProfiles(collector.profileRequests()).typesAndLeaves()).get());
  }

  /** {@code /stats}: per function name, {calls, nanoseconds}. */
  static Map<String, long[]> measured(String stats) {
    Map<String, long[]> measured = new HashMap<>();
    stats.lines().map(line -> line.split(" ")).forEach(
        f -> measured.put(f[0], new long[] {Long.parseLong(f[1]), Long.parseLong(f[2])}));
    return measured;
  }
}
