package io.spanflight.smoke;

import static io.spanflight.smoke.MethodSourcesSmokeTest.WORK;
import static io.spanflight.smoke.MethodSourcesSmokeTest.awaitPingSeen;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.spanflight.smoke.app.methods.MethodApp;
import io.spanflight.smoke.collector.OtlpCollector;
import io.spanflight.smoke.harness.AppJvm;
import io.spanflight.smoke.harness.Jdk;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import javax.management.Attribute;
import javax.management.ObjectName;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The control MBean's {@code MethodTimingFilter} changes which methods are timed while the app
 * runs: a method that leaves the filter stops counting, one that joins starts, without a restart
 * (JDK 17 and 21: the hooks retransform; JDK 25: a new JFR stream with the new filter). A filter in
 * the wrong syntax is refused and changes nothing. On JDK 17 and 21, methods beyond {@code
 * otel.spanflight.method.hooks.max} are named in a log line and not instrumented.
 */
class MethodFilterChangeSmokeTest extends SmokeTestBase {
  private static final String PROBE = WORK + "Probe::ping";
  private static final String BY_CLASS = WORK + "ByClass.work";
  /** Parts that only match classes the hooks never touch (JDK, agent, Spanflight). */
  private static final String GUARDED = "java.lang.String;::toString;::hashCode;jdk.internal.misc.Unsafe;"
      + "io.spanflight.internal.Spanflight;io.opentelemetry.javaagent.bootstrap.InstrumentationHolder";
  private static final String BY_NAME = WORK + "ByName.uniquelyNamedMethodWork";

  @ParameterizedTest(name = "{0}")
  @MethodSource("io.spanflight.smoke.SmokeTestBase#jdksUnderTest")
  @Timeout(value = 2, unit = TimeUnit.MINUTES)
  void methodsLeaveAndJoinTheFilterAtRunTime(Jdk jdk) throws Exception {
    try (OtlpCollector collector = OtlpCollector.start()) {
      AppJvm.Builder builder = app(jdk, collector, "method-filter")
          .mainClass(MethodApp.class)
          .systemProperty("otel.spanflight.methodtiming.filter", WORK + "ByClass;" + PROBE)
          .systemProperty("otel.spanflight.method.hooks.max", "3");
      if (jdk.feature() < 25) { // guard rails of the hooks (JFR on 25 would trace these JDK methods)
        builder.systemProperty("otel.spanflight.methodtrace.filter", GUARDED);
      }
      AppJvm app = builder.start();
      try (app;
          AppControl control = new AppControl(app.baseUri(), jdk.home())) {
        awaitPingSeen(collector, control, app, false);
        control.get("/work?calls=2&us=1000");
        awaitPingSeen(collector, control, app, false);
        assertThat(invocations(collector, BY_CLASS)).as(withLog(app, "before the change")).isEqualTo(2);
        assertThat(invocations(collector, BY_NAME)).isZero();

        ObjectName mbean = new ObjectName(AppControl.SPANFLIGHT);
        control.jmx().setAttribute(mbean, new Attribute("MethodTimingFilter", "::uniquelyNamedMethodWork;" + PROBE));
        awaitPingSeen(collector, control, app, false);
        control.get("/work?calls=3&us=1000");
        awaitPingSeen(collector, control, app, false);
        assertThat(invocations(collector, BY_CLASS)).as(withLog(app, "left the filter")).isEqualTo(2);
        assertThat(invocations(collector, BY_NAME)).as(withLog(app, "joined the filter")).isEqualTo(3);

        assertThatThrownBy(() -> control.jmx().setAttribute(mbean, new Attribute("MethodTimingFilter", "com example")))
            .hasStackTraceContaining("otel.spanflight.methodtiming.filter");
        assertThat(control.spanflightAttribute("MethodTimingFilter")).isEqualTo("::uniquelyNamedMethodWork;" + PROBE);

        if (jdk.feature() < 25) { // ByClass.work, ping and the uniquely named method hold the 3 ids
          control.jmx().setAttribute(mbean, new Attribute("MethodTimingFilter", WORK + "ByMethod;" + PROBE));
          boolean logged = app.awaitLog("Spanflight instruments at most 3 methods", Duration.ofSeconds(10));
          assertThat(logged).as(withLog(app, "a line naming the methods beyond the cap")).isTrue();
          assertThat(app.logText()).contains("2 method(s), among them " + WORK + "ByMethod::");

          assertThat(app.logText()).as("loaded, but never instrumented")
              .contains("methodtrace [java.lang.String, ::toString, ::hashCode, jdk.internal.misc.Unsafe, "
                  + "io.spanflight.internal.Spanflight, io.opentelemetry.javaagent.bootstrap.InstrumentationHolder]");
          assertThat(new MethodProfiles(collector.profileRequests()).typesAndLeaves())
              .as("method samples of guarded classes")
              .noneMatch(name -> name.matches("method_\\w+ (java|jdk|sun|com\\.sun|io\\.spanflight\\.internal|io\\.opentelemetry)\\..*"));
        }
      }
    }
  }

  private static long invocations(OtlpCollector collector, String method) {
    return new MethodProfiles(collector.profileRequests()).of("method_invocations", method).calls;
  }
}
