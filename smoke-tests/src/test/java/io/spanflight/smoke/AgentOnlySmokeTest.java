package io.spanflight.smoke;

import static org.assertj.core.api.Assertions.assertThat;

import io.spanflight.smoke.collector.OtlpCollector;
import io.spanflight.smoke.harness.AppJvm;
import io.spanflight.smoke.harness.LoadDriver;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The harness itself, without spanflight.jar: the javaagent alone creates a SERVER span per
 * request and exports it to the collector, and nothing sends profiles. When an attribution test
 * fails, this one tells whether the harness or the extension is at fault.
 */
class AgentOnlySmokeTest extends SmokeTestBase {

  @Test
  @Timeout(value = 2, unit = TimeUnit.MINUTES)
  void agentAloneExportsServerSpansAndNoProfiles() throws Exception {
    try (OtlpCollector collector = OtlpCollector.start()) {
      AppJvm app = app(newestJdk(), collector, "agent-only").withoutExtension().start();
      try (app) {
        LoadDriver.Result load = new LoadDriver(app.baseUri()).send("/burn?ms=5", 10, 2);
        assertThat(load.failed()).as(withLog(app, "requests: " + load)).isZero();
      }
      boolean arrived = collector.await(c -> serverSpans(c, "/burn").size() >= 10, Duration.ofSeconds(30));

      assertThat(arrived).as(withLog(app, "10 SERVER spans for /burn should arrive, got "
          + serverSpans(collector, "/burn").size())).isTrue();
      assertThat(collector.profileRequests()).as(withLog(app, "profiles without the extension"))
          .isEmpty();
    }
  }
}
