package io.spanflight.smoke;

import static org.assertj.core.api.Assertions.assertThat;

import io.spanflight.smoke.collector.OtlpCollector;
import io.spanflight.smoke.harness.AppJvm;
import io.spanflight.smoke.harness.Jdk;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import jdk.management.jfr.FlightRecorderMXBean;
import jdk.management.jfr.RecordingInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Spanflight says when its CPU source is blind, with the real agent and a service burning CPU
 * all along (BurnApp has no JFR recording of its own, so ours is the only one asking for {@code
 * jdk.ExecutionSample}, pinned as the CPU source on every JDK): within three export intervals of silence, one warning names the source,
 * its event and the likely cause, and the control MBean's {@code BlindSources} count goes up.
 *
 * <ul>
 *   <li>Someone switches the event off in our recording's settings through JMX, as JDK Mission
 *       Control can (a second recording cannot: JFR runs each event at the union of all
 *       recordings' settings): the cause names our recording's changed setting; switched on
 *       again, one line says the source sees again.
 *   <li>Our reader stops: its chunk files are broken under it until it gives up (three failed
 *       reads): the cause says the reader stopped.
 * </ul>
 */
class BlindSourceSmokeTest extends SmokeTestBase {
  private static final String BLIND = "Spanflight's cpu source is blind: no jdk.ExecutionSample event for 3 export intervals";

  @ParameterizedTest(name = "{0}")
  @MethodSource("io.spanflight.smoke.SmokeTestBase#jdksUnderTest")
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void ourRecordingsEventSwitchedOffThroughJmx(Jdk jdk) throws Exception {
    try (OtlpCollector collector = OtlpCollector.start()) {
      AppJvm app = executionSampler(app(jdk, collector, "blind-settings")).start();
      try (app;
          AppControl control = new AppControl(app.baseUri(), jdk.home());
          Burning burning = new Burning(control)) {
        app.awaitLog(" started: timeline=", Duration.ofSeconds(30));
        FlightRecorderMXBean jfr = control.flightRecorder();
        long ours = ourRecording(jfr);
        setOurs(jfr, ours, "false");
        assertThat(app.awaitLog(BLIND, Duration.ofSeconds(40))).as(withLog(app, "the blind line")).isTrue();
        assertThat(linesWith(app, "cpu source is blind")).singleElement().satisfies(line -> assertThat(line)
            .contains("while the application's threads used", "ms of CPU",
                "likely cause: someone changed the settings of Spanflight's JFR recording 'Spanflight'"
                    + " (jdk.ExecutionSample#enabled=false"));
        assertThat((Long) control.spanflightAttribute("BlindSources")).isEqualTo(1);
        setOurs(jfr, ours, "true");
        assertThat(app.awaitLog("Spanflight's cpu source sees again: jdk.ExecutionSample events arrive",
            Duration.ofSeconds(30))).as(withLog(app, "the line when it sees again")).isTrue();
        assertThat(linesWith(app, "cpu source is blind")).as("one line while blind").hasSize(1);
        assertThat(linesWith(app, "alloc source is blind")).isEmpty();
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("io.spanflight.smoke.SmokeTestBase#jdksUnderTest")
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void ourReaderStopped(Jdk jdk) throws Exception {
    try (OtlpCollector collector = OtlpCollector.start()) {
      // our reader alone: with the JDK's stream as its fallback (the default), a broken chunk is read by that
      AppJvm app = executionSampler(app(jdk, collector, "blind-reader")).systemProperty("otel.spanflight.jfr.reader", "spanflight").start();
      try (app;
          AppControl control = new AppControl(app.baseUri(), jdk.home());
          Burning burning = new Burning(control)) {
        app.awaitLog(" started: timeline=", Duration.ofSeconds(30));
        Path repository = Path.of(systemProperty(control, "jdk.jfr.repository"));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!app.logText().contains("no more profiles") && System.nanoTime() < deadline) {
          breakNewestChunk(repository);
          TimeUnit.MILLISECONDS.sleep(200); // poll interval: our reader reads every 250 ms
        }
        assertThat(app.logText()).as(withLog(app, "the reader gives up")).contains("no more profiles");
        assertThat(app.awaitLog(BLIND, Duration.ofSeconds(40))).as(withLog(app, "the blind line")).isTrue();
        assertThat(linesWith(app, "cpu source is blind")).singleElement().satisfies(line ->
            assertThat(line).contains("likely cause: Spanflight's JFR reader stopped"));
        assertThat((Long) control.spanflightAttribute("BlindSources")).isPositive();
      }
    }
  }

  /** Writes over the magic bytes of the newest chunk file: our reader refuses the chunk. */
  private static void breakNewestChunk(Path repository) throws IOException {
    Path newest;
    try (Stream<Path> files = Files.list(repository)) {
      newest = files.filter(f -> f.toString().endsWith(".jfr"))
          .max((a, b) -> Long.compare(a.toFile().lastModified(), b.toFile().lastModified())).orElse(null);
    }
    if (newest != null) {
      try (RandomAccessFile file = new RandomAccessFile(newest.toFile(), "rw")) {
        file.write("XXXX".getBytes(StandardCharsets.US_ASCII));
      }
    }
  }

  private static String systemProperty(AppControl control, String name) throws Exception {
    for (String line : control.jcmd("VM.system_properties").split("\\R")) {
      if (line.startsWith(name + "=")) {
        return line.substring(name.length() + 1).replace("\\:", ":").replace("\\\\", "\\");
      }
    }
    throw new AssertionError(name + " not among the app's system properties");
  }

  private static long ourRecording(FlightRecorderMXBean jfr) {
    return jfr.getRecordings().stream().filter(r -> r.getName().equals("Spanflight")).mapToLong(RecordingInfo::getId)
        .findFirst().orElseThrow(() -> new AssertionError("our recording is not listed"));
  }

  /** What JDK Mission Control does to change a running recording's settings. */
  private static void setOurs(FlightRecorderMXBean jfr, long id, String enabled) {
    Map<String, String> settings = new HashMap<>(jfr.getRecordingSettings(id));
    settings.put("jdk.ExecutionSample#enabled", enabled);
    jfr.setRecordingSettings(id, settings);
  }

  private static java.util.List<String> linesWith(AppJvm app, String text) {
    return app.logText().lines().filter(line -> line.contains(text)).collect(java.util.stream.Collectors.toList());
  }

  /** Requests that burn CPU one after the other, on a thread of the test, until closed. */
  private static final class Burning implements AutoCloseable {
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Thread thread;

    Burning(AppControl control) {
      thread = new Thread(() -> {
        while (running.get()) {
          try {
            control.get("/burn?ms=200");
          } catch (IOException | RuntimeException e) {
            return; // the app stopped
          } catch (InterruptedException e) {
            return;
          }
        }
      }, "burning");
      thread.setDaemon(true);
      thread.start();
    }

    @Override
    public void close() throws InterruptedException {
      running.set(false);
      thread.join(5000);
    }
  }
}
