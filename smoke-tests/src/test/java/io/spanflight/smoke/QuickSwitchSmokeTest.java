package io.spanflight.smoke;

import static org.assertj.core.api.Assertions.assertThat;

import io.spanflight.smoke.app.CoexistApp;
import io.spanflight.smoke.collector.OtlpCollector;
import io.spanflight.smoke.harness.AppJvm;
import io.spanflight.smoke.harness.Jdk;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Switching Spanflight off through its MBean right after switching it on (the run still starting:
 * its exporter being made, its stream starting, its tasks being scheduled), again and again with
 * pauses from none to a few hundred milliseconds, logs no failure: no {@code
 * RejectedExecutionException}, no failed background task, and the app's log shows as many
 * switch-offs as stops. With the real agent, exporting over gRPC to the in-process collector.
 */
class QuickSwitchSmokeTest extends SmokeTestBase {

  @ParameterizedTest(name = "{0}")
  @MethodSource("io.spanflight.smoke.SmokeTestBase#jdksUnderTest")
  @Timeout(value = 6, unit = TimeUnit.MINUTES)
  void offRightAfterOnLogsNoFailure(Jdk jdk) throws Exception {
    try (OtlpCollector collector = OtlpCollector.start()) {
      AppJvm app = app(jdk, collector, "quick-switch").mainClass(CoexistApp.class).start();
      try (app;
          AppControl control = new AppControl(app.baseUri(), jdk.home())) {
        assertThat(control.spanflight("stop")).as("the first stop").isTrue();
        for (int cycle = 0; cycle < 24; cycle++) {
          assertThat(control.spanflight("start")).as("start in cycle " + cycle).isTrue();
          TimeUnit.MILLISECONDS.sleep((cycle % 8) * 40L); // 0 to 280 ms: before, during and after the run's start
          assertThat(control.spanflight("stop")).as("stop in cycle " + cycle).isTrue();
        }
      }
      String log = app.logText();
      assertThat(log).as(withLog(app, "the app's log")).doesNotContain("RejectedExecutionException")
          .doesNotContain("background task").doesNotContain("did not stop cleanly");
    }
  }
}
