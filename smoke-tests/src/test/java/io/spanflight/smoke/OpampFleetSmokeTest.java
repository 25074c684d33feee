package io.spanflight.smoke;

import static io.spanflight.smoke.MethodSourcesSmokeTest.WORK;
import static io.spanflight.smoke.MethodSourcesSmokeTest.measured;
import static io.spanflight.smoke.opamp.RealOpampServer.at;
import static org.assertj.core.api.Assertions.assertThat;

import io.spanflight.smoke.app.methods.MethodApp;
import io.spanflight.smoke.collector.OtlpCollector;
import io.spanflight.smoke.harness.AppJvm;
import io.spanflight.smoke.harness.Jdk;
import io.spanflight.smoke.opamp.RealOpampServer;
import io.spanflight.smoke.profiles.SpanLink;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import javax.management.ObjectName;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fleet control end to end: the real OpenTelemetry javaagent with spanflight.jar on {@link
 * MethodApp}, steered by the real OpAMP server ({@link RealOpampServer}, opamp-go's server package)
 * with a bearer token, profiles to the in-process collector. One app per JDK runs the scenarios
 * in order while the test keeps calling {@code /work} (each call parks 6 x 25 ms, above the park
 * threshold, so every export interval has samples): the first report; profiling switched off and
 * on remotely; a method trace for 30 s (linked to the {@code /work} spans, gone after the time
 * box); the MBean's settings above the remote ones; a hostile configuration and a huge one
 * refused with nothing changed; garbage answers; the server down for a minute while profiling
 * goes on. The token never shows in the app's log. It runs on JDK 25 and 17 only (the client is the
 * same Java on every JDK; 21 would add some two minutes to CI and nothing the ends do not show).
 */
class OpampFleetSmokeTest extends SmokeTestBase {
  private static final Path REPO = CollectorRoundTripSmokeTest.REPO;
  private static final String SERVICE = "opamp-fleet";
  private static final String TOKEN = "s3cr3t";
  private static final String TRACED = WORK + "ByMethod.selected";
  private static final String TRACED_FILTER = WORK + "ByMethod::selected";
  private static final Duration TIME_BOX = Duration.ofSeconds(30);
  private static final Duration DOWNTIME = Duration.ofSeconds(60);
  private static final String LOG_PREFIX = "Spanflight fleet control (OpAMP): ";
  private static final Duration WAIT = Duration.ofSeconds(20);

  @TempDir
  Path temp;

  @ParameterizedTest(name = "{0}")
  @MethodSource("io.spanflight.smoke.SmokeTestBase#newestAndOldestJdk")
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void aServerSteersTheAgent(Jdk jdk) throws Exception {
    try (RealOpampServer server = RealOpampServer.start(REPO, temp.resolve("opamp.log"), "-token", TOKEN);
        OtlpCollector collector = OtlpCollector.start()) {
      AppJvm app = app(jdk, collector, SERVICE)
          .mainClass(MethodApp.class)
          .systemProperty("otel.spanflight.export.interval", "1s")
          .systemProperty("otel.spanflight.opamp.endpoint", server.endpoint())
          .environment("OTEL_SPANFLIGHT_OPAMP_HEADERS", "Authorization=Bearer%20" + TOKEN) // not in the logged command
          .systemProperty("otel.spanflight.opamp.interval", "1s")
          .start();
      try (app;
          AppControl control = new AppControl(app.baseUri(), jdk.home());
          Load load = new Load(control)) {
        Fleet fleet = new Fleet(server, collector, app, control, load);

        fleet.firstReport();
        fleet.offAndOn();
        fleet.methodTraceForTheTimeBox();
        fleet.theMBeanOverridesTheServer();
        fleet.hostileConfigurationsChangeNothing();
        fleet.garbageChangesNothing();
        fleet.aServerDownForAMinuteChangesNothing();

        assertThat(load.failedCalls.get()).as("failed calls of /work").isZero();
        assertThat(app.logText()).as("the token in the app's log").doesNotContain(TOKEN);
        assertThat(server.logText()).as("the token in what the agent reported").doesNotContain(TOKEN);
      }
    }
  }

  /**
   * Calls {@code /work} from one thread of the test, one call at a time; {@link #pause} waits for
   * the call under way, so that none straddles a change of run (a thread's span is known to a new
   * run from its next switch on).
   */
  private static final class Load implements AutoCloseable {
    final AtomicLong failedCalls = new AtomicLong();
    private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor();
    private final Object calling = new Object();
    private volatile boolean paused;

    Load(AppControl control) {
      executor.scheduleWithFixedDelay(() -> {
        synchronized (calling) {
          if (paused) {
            return;
          }
          try {
            control.get("/work?calls=1&us=25000");
          } catch (Exception e) {
            failedCalls.incrementAndGet();
          }
        }
      }, 0, 150, TimeUnit.MILLISECONDS);
    }

    void pause() {
      synchronized (calling) { // after the call under way
        paused = true;
      }
    }

    void resume() {
      paused = false;
    }

    @Override
    public void close() {
      executor.shutdownNow();
    }
  }

  /** The scenarios, in order, on one app. */
  private record Fleet(RealOpampServer server, OtlpCollector collector, AppJvm app, AppControl control, Load load) {

    void firstReport() throws Exception {
      Map<String, Object> first = awaitMessage(0, m -> true);
      assertThat(at(first, "agentToServer", "capabilities")).isEqualTo("6151");
      assertThat(identifying(first, "service.name")).isEqualTo(SERVICE);
      assertThat(effectiveConfig(first)).startsWith("# Spanflight ");
      awaitMessage(0, m -> "running".equals(at(m, "agentToServer", "health", "status")));
      assertThat(app.logText()).contains(LOG_PREFIX + "reporting to ");
    }

    void offAndOn() throws Exception {
      int from = server.messages().size();
      String off = server.putConfig("otel.spanflight.enabled=false\n", "text/plain");
      awaitStatus(from, off, "APPLIED");
      awaitMessage(from, m -> "off".equals(at(m, "agentToServer", "health", "status")));
      assertThat(control.spanflightAttribute("Running")).isEqualTo(false);
      // the last interval may still be on its way; then nothing, though the app is busy
      TimeUnit.SECONDS.sleep(2); // not waiting for something: the quiet window starts after the last interval
      int requests = collector.profileRequests().size();
      assertThat(collector.await(c -> c.profileRequests().size() > requests, Duration.ofSeconds(5)))
          .as(withLog(app, "a profiles request while switched off remotely")).isFalse();

      from = server.messages().size();
      String local = server.clearConfig();
      awaitStatus(from, local, "APPLIED");
      awaitMessage(from, m -> "running".equals(at(m, "agentToServer", "health", "status")));
      assertThat(control.spanflightAttribute("Running")).isEqualTo(true);
      assertThat(collector.await(c -> c.profileRequests().size() > requests + 1, WAIT))
          .as(withLog(app, "profiles after switching on again")).isTrue();
    }

    void methodTraceForTheTimeBox() throws Exception {
      int from = server.messages().size();
      load.pause();
      long start = System.nanoTime();
      String trace = server.putConfig("otel.spanflight.methodtrace.filter=" + TRACED_FILTER + "\ntime.box=30s\n", "");
      awaitStatus(from, trace, "APPLIED");
      load.resume();
      String[] origins = (String[]) control.spanflightAttribute("SettingsOrigins");
      assertThat(origins).singleElement().asString()
          .startsWith("otel.spanflight.methodtrace.filter=" + TRACED_FILTER + " (remote until ");
      int reported = indexOf(awaitMessage(from, m -> effectiveConfig(m).contains(TRACED_FILTER + "   # remote until ")));

      assertThat(collector.await(c -> traces(c).calls >= 5, WAIT))
          .as(withLog(app, "traced calls of " + TRACED)).isTrue();
      MethodProfiles.Totals traced = traces(collector);
      assertThat(traced.unlinkedCalls).as("traced calls without a span").isZero();
      Set<SpanLink> linked = traced.callsBySpan.keySet();
      assertThat(collector.await(c -> serverSpans(c, "/work").containsAll(linked), WAIT))
          .as("every traced call is linked to a SERVER span of /work").isTrue();
      assertThat(traced.callsBySpan).as("one traced call per /work request")
          .allSatisfy((span, calls) -> assertThat(calls).isEqualTo(1));

      boolean ended = app.awaitLog(LOG_PREFIX + "the remote settings' time box ended", TIME_BOX.plusSeconds(20));
      long endedAfter = System.nanoTime() - start;
      long endedEpochNanos = epochNanosNow();
      assertThat(ended).as(withLog(app, "the time box's end")).isTrue();
      assertThat(Duration.ofNanos(endedAfter)).as("the time box's length").isBetween(TIME_BOX, TIME_BOX.plusSeconds(10));
      assertThat((String[]) control.spanflightAttribute("SettingsOrigins")).isEmpty();
      Map<String, Object> local = awaitMessage(reported + 1, m -> !effectiveConfig(m).isEmpty());
      assertThat(effectiveConfig(local)).contains("# every run-time setting is local").doesNotContain(TRACED_FILTER);

      long callsAtTheEnd = measured(control.get("/stats")).get(TRACED)[0];
      int requests = collector.profileRequests().size();
      assertThat(collector.await(c -> c.profileRequests().size() >= requests + 3, WAIT))
          .as("profiles after the time box").isTrue();
      assertThat(measured(control.get("/stats")).get(TRACED)[0]).as("calls after the time box").isGreaterThan(callsAtTheEnd);
      MethodProfiles later = new MethodProfiles(collector.profileRequests().subList(requests + 1, requests + 3));
      assertThat(later.of("method_trace", TRACED).calls).as("traced calls exported after the time box").isZero();
      assertThat(traces(collector).latestTimestampNanos).as("the last traced call, before the time box ended")
          .isLessThan(endedEpochNanos);
    }

    void theMBeanOverridesTheServer() throws Exception {
      int from = server.messages().size();
      String remote = server.putConfig("otel.spanflight.cpu.period=50ms\n", "text/plain");
      awaitStatus(from, remote, "APPLIED");
      assertThat((String[]) control.spanflightAttribute("SettingsOrigins"))
          .containsExactly("otel.spanflight.cpu.period=50ms (remote)");

      invoke("applySettings", "otel.spanflight.cpu.period=40ms");
      assertThat((String[]) control.spanflightAttribute("SettingsOrigins"))
          .containsExactly("otel.spanflight.cpu.period=40ms (jmx)");
      awaitMessage(from, m -> effectiveConfig(m).contains("otel.spanflight.cpu.period=40ms   # jmx"));

      invoke("clearSettings");
      assertThat((String[]) control.spanflightAttribute("SettingsOrigins"))
          .containsExactly("otel.spanflight.cpu.period=50ms (remote)");
    }

    void hostileConfigurationsChangeNothing() throws Exception {
      String configuration = (String) control.spanflightAttribute("Configuration");
      String[] origins = (String[]) control.spanflightAttribute("SettingsOrigins");
      int from = server.messages().size();
      String hostile = server.putConfig(String.join("\n",
          "otel.spanflight.cpu.periode=10ms",
          "otel.spanflight.exporter=file",
          "otel.spanflight.context.filter=" + "hasKey(a)||".repeat(200) + "hasContext",
          "otel.spanflight.methodtrace.filter=java.lang.String::hashCode",
          "otel.spanflight.methodtiming.filter=::toString",
          "otel.spanflight.cpu.period=0ms",
          ""), "text/plain");
      String error = (String) at(awaitStatus(from, hostile, "FAILED"), "agentToServer", "remote_config_status", "error_message");
      assertThat(error).contains(
          "unknown key otel.spanflight.cpu.periode: did you mean otel.spanflight.cpu.period?",
          "otel.spanflight.exporter is read at start only",
          "for otel.spanflight.context.filter", "at most 1024 characters long",
          "for otel.spanflight.methodtrace.filter", "no class under java.",
          "for otel.spanflight.methodtiming.filter", "'::toString' matches the JDK's methods too",
          "invalid value '0ms' for otel.spanflight.cpu.period");
      assertThat(app.logText()).contains(LOG_PREFIX + "remote configuration " + hostile.substring(0, 8) + " refused, nothing changed: ");

      from = server.messages().size();
      String huge = server.putConfig("otel.spanflight.context.filter=" + "hasContext||".repeat(100 * 1024 / 12) + "sampled\n", "");
      String hugeError = (String) at(awaitStatus(from, huge, "FAILED"), "agentToServer", "remote_config_status", "error_message");
      assertThat(hugeError).startsWith("the settings are ").endsWith(" bytes long: at most 65536 are accepted");

      assertThat(control.spanflightAttribute("Configuration")).isEqualTo(configuration);
      assertThat((String[]) control.spanflightAttribute("SettingsOrigins")).containsExactly(origins);
      assertThat(control.spanflightAttribute("Running")).isEqualTo(true);
    }

    void garbageChangesNothing() throws Exception {
      String configuration = (String) control.spanflightAttribute("Configuration");
      server.fault("garbage");
      assertThat(app.awaitLog(LOG_PREFIX + "the server's answer is not an OpAMP message", WAIT))
          .as(withLog(app, "a warning on the garbage")).isTrue();
      TimeUnit.SECONDS.sleep(4); // not waiting for something: the back-off makes its next tries, at 1 and 3 s
      server.fault("none");
      assertThat(app.awaitLog(LOG_PREFIX + "the server answers again", WAIT)).as(withLog(app, "back to answers")).isTrue();
      assertThat(app.logText().lines().filter(line -> line.contains("not an OpAMP message")))
          .as("warnings on the garbage: one (throttled)").hasSize(1);
      assertThat(control.spanflightAttribute("Configuration")).isEqualTo(configuration);
      assertThat(control.spanflightAttribute("Running")).isEqualTo(true);
    }

    void aServerDownForAMinuteChangesNothing() throws Exception {
      String configuration = (String) control.spanflightAttribute("Configuration");
      String[] origins = (String[]) control.spanflightAttribute("SettingsOrigins");
      server.kill();
      long downUntil = System.nanoTime() + DOWNTIME.toNanos();
      int from = server.messages().size();
      while (System.nanoTime() < downUntil) { // a profiles request every interval, all minute long
        int requests = collector.profileRequests().size();
        assertThat(collector.await(c -> c.profileRequests().size() > requests, Duration.ofSeconds(10)))
            .as(withLog(app, "profiles while the OpAMP server is down")).isTrue();
      }
      assertThat(app.logText()).contains(LOG_PREFIX + "the server could not be reached");
      assertThat(control.spanflightAttribute("Configuration")).isEqualTo(configuration);
      assertThat((String[]) control.spanflightAttribute("SettingsOrigins")).containsExactly(origins);

      server.start();
      Map<String, Object> again = awaitMessage(from, m -> true, Duration.ofSeconds(90)); // back-off: up to 64 s
      assertThat(identifying(again, "service.name")).as("everything again after a failure").isEqualTo(SERVICE);
      assertThat(at(again, "agentToServer", "health", "status")).isEqualTo("running");
      assertThat(effectiveConfig(again)).contains("otel.spanflight.cpu.period=50ms   # remote");
      assertThat(app.awaitLog(LOG_PREFIX + "the server answers again", WAIT)).isTrue();
      assertThat(control.spanflightAttribute("Configuration")).isEqualTo(configuration);
    }

    private Map<String, Object> awaitStatus(int from, String hashHex, String status) throws InterruptedException {
      String hash = Base64.getEncoder().encodeToString(HexFormat.of().parseHex(hashHex));
      return awaitMessage(from,
          m -> hash.equals(at(m, "agentToServer", "remote_config_status", "last_remote_config_hash"))
              && ("RemoteConfigStatuses_" + status).equals(at(m, "agentToServer", "remote_config_status", "status")));
    }

    private Map<String, Object> awaitMessage(int from, Predicate<Map<String, Object>> matches) throws InterruptedException {
      return awaitMessage(from, matches, WAIT);
    }

    /** The first message from the {@code from}th on (all server runs) that {@code matches}. */
    private Map<String, Object> awaitMessage(int from, Predicate<Map<String, Object>> matches, Duration timeout)
        throws InterruptedException {
      long deadline = System.nanoTime() + timeout.toNanos();
      while (true) {
        List<Map<String, Object>> messages = server.messages();
        for (Map<String, Object> message : messages.subList(Math.min(from, messages.size()), messages.size())) {
          if (matches.test(message)) {
            return message;
          }
        }
        if (System.nanoTime() > deadline) {
          throw new AssertionError(withLog(app, "no matching OpAMP message from #" + from + " in " + timeout
              + "; the server's log ends:\n" + server.logTail(5)).get());
        }
        TimeUnit.MILLISECONDS.sleep(100); // poll interval
      }
    }

    private int indexOf(Map<String, Object> message) {
      return server.messages().indexOf(message);
    }

    private void invoke(String operation, String... lines) throws Exception {
      String[] signature = lines.length == 0 ? null : new String[] {String.class.getName()};
      control.jmx().invoke(new ObjectName(AppControl.SPANFLIGHT), operation, lines.length == 0 ? null : lines, signature);
    }
  }

  private static MethodProfiles.Totals traces(OtlpCollector collector) {
    return new MethodProfiles(collector.profileRequests()).of("method_trace", TRACED);
  }

  /** The text of the effective config entry "spanflight" a message carries, or "" without one. */
  private static String effectiveConfig(Map<String, Object> message) {
    Object body = at(message, "agentToServer", "effective_config", "config_map", "config_map", "spanflight", "body");
    return body == null ? "" : new String(Base64.getDecoder().decode((String) body), StandardCharsets.UTF_8);
  }

  /** The value of an identifying attribute of the agent description a message carries, or null. */
  static Object identifying(Map<String, Object> message, String key) {
    Object attributes = at(message, "agentToServer", "agent_description", "identifying_attributes");
    if (attributes instanceof List<?> list) {
      for (Object attribute : list) {
        @SuppressWarnings("unchecked")
        Map<String, Object> map = (Map<String, Object>) attribute;
        if (key.equals(map.get("key"))) {
          return at(map, "value", "string_value");
        }
      }
    }
    return null;
  }

  private static long epochNanosNow() {
    Instant now = Instant.now();
    return now.getEpochSecond() * 1_000_000_000L + now.getNano();
  }
}
