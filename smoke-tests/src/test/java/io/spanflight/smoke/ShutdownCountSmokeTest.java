package io.spanflight.smoke;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.opentelemetry.proto.profiles.v1development.Line;
import io.opentelemetry.proto.profiles.v1development.Location;
import io.opentelemetry.proto.profiles.v1development.Profile;
import io.opentelemetry.proto.profiles.v1development.ProfilesDictionary;
import io.opentelemetry.proto.profiles.v1development.ResourceProfiles;
import io.opentelemetry.proto.profiles.v1development.Sample;
import io.opentelemetry.proto.profiles.v1development.ScopeProfiles;
import io.spanflight.smoke.app.ShutdownParksApp;
import io.spanflight.smoke.collector.OtlpCollector;
import io.spanflight.smoke.harness.AppJvm;
import io.spanflight.smoke.harness.Jdk;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Nothing lost at the end: every event JFR recorded before the JVM began to shut down is read,
 * joined and exported. {@link ShutdownParksApp} parks {@value #PARKS} times for 5 ms, each in its
 * own span (Spanflight's park threshold 1 ms), as its last act, and the JVM then shuts down at
 * once: main returns, or the test sends SIGTERM as soon as the app says it is done. Most of those
 * parks fall into JFR's last second, which JFR writes only as the recordings end. The park
 * samples exported with the app's park method on the stack (each event one timestamp), plus the
 * events Spanflight counted as dropped (its stop line), must be exactly {@value #PARKS}; with the
 * OTLP exporter (the in-process collector) and with the file exporter.
 */
class ShutdownCountSmokeTest extends SmokeTestBase {
  static final int PARKS = 300;
  /** From the app's last park: the exporter's shutdown timeout (5 s), the last JFR flush, slack. */
  static final Duration EXIT_WITHIN = Duration.ofSeconds(20);
  private static final Pattern DONE = Pattern.compile("PARKS DONE (\\d+) short (\\d+)");
  private static final Pattern STOP_LINE = Pattern.compile("Spanflight stopped: samples=.* dropped=(\\d+)");

  enum Exporter { OTLP, FILE }

  enum Exit { RETURN_FROM_MAIN, SIGTERM }

  static Stream<Arguments> cases() {
    List<Arguments> cases = new ArrayList<>();
    for (Jdk jdk : jdksUnderTest()) {
      for (Exporter exporter : Exporter.values()) {
        for (Exit exit : Exit.values()) {
          cases.add(Arguments.of(jdk, exporter, exit));
        }
      }
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{0}, {1}, {2}")
  @MethodSource("cases")
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void everyParkRecordedBeforeShutdownIsExportedOrCountedAsDropped(Jdk jdk, Exporter exporter, Exit exit,
      @TempDir Path dir) throws Exception {
    try (OtlpCollector collector = OtlpCollector.start()) {
      AppJvm.Builder builder = app(jdk, collector, "shutdown-parks-" + exporter.name().toLowerCase())
          .mainClass(ShutdownParksApp.class)
          .classpath(PATHS.appDependencies())
          .systemProperty("parks.count", Integer.toString(PARKS))
          .systemProperty("parks.exit", exit == Exit.SIGTERM ? "wait" : "return")
          .systemProperty("otel.spanflight.park.threshold", "1ms");
      for (String other : List.of("cpu", "cputime", "alloc", "lock", "socket", "file")) {
        // the stop line counts the drops of every source: park events only, so its count is theirs
        builder.systemProperty("otel.spanflight." + other + ".enabled", "false");
      }
      if (exporter == Exporter.FILE) {
        builder.systemProperty("otel.spanflight.exporter", "file")
            .systemProperty("otel.spanflight.file.directory", dir.toString());
      }
      try (AppJvm app = builder.launch()) {
        Matcher done = awaitDone(app);
        if (exit == Exit.SIGTERM) {
          app.stop();
          assertThat(app.forciblyStopped()).as(withLog(app, "stopped by SIGTERM, not killed")).isFalse();
        } else {
          assertThat(app.awaitExit(EXIT_WITHIN)).as(withLog(app, "exits after main returned")).isTrue();
          assertThat(app.exitValue()).as(withLog(app, "exit code")).isZero();
        }
        int parks = Integer.parseInt(done.group(1));
        assertThat(Integer.parseInt(done.group(2)))
            .as(withLog(app, "parks shorter than 3 ms (JFR may have left them below the threshold)")).isZero();

        Matcher stopLine = STOP_LINE.matcher(app.logText());
        assertThat(stopLine.find()).as(withLog(app, "Spanflight's stop line")).isTrue();
        long dropped = Long.parseLong(stopLine.group(1));
        List<ExportProfilesServiceRequest> requests =
            exporter == Exporter.FILE ? readFiles(dir) : collector.profileRequests();
        long exported = parkEvents(requests, ShutdownParksApp.PARK_METHOD);
        System.out.printf("%s, %s, %s: %d parks recorded, %d exported, %d counted as dropped%n",
            jdk, exporter, exit, parks, exported, dropped);
        assertThat(exported + dropped)
            .as(withLog(app, "park samples exported in " + ShutdownParksApp.PARK_METHOD + " (" + exported
                + ") + events Spanflight dropped (" + dropped + ") against the " + parks + " parks the app made"))
            .isEqualTo(parks);
      }
    }
  }

  private static Matcher awaitDone(AppJvm app) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (true) {
      Matcher done = DONE.matcher(app.logText());
      if (done.find()) {
        return done;
      }
      if (System.nanoTime() - deadline > 0 || app.awaitExit(Duration.ofMillis(20))) {
        assertThat(app.logText()).as(withLog(app, "the app should print PARKS DONE")).containsPattern(DONE);
      }
    }
  }

  /** Park events (one timestamp each) of the samples whose stack holds {@code method}. */
  private static long parkEvents(List<ExportProfilesServiceRequest> requests, String method) {
    long events = 0;
    for (ExportProfilesServiceRequest request : requests) {
      ProfilesDictionary dictionary = request.getDictionary();
      for (ResourceProfiles resource : request.getResourceProfilesList()) {
        for (ScopeProfiles scope : resource.getScopeProfilesList()) {
          for (Profile profile : scope.getProfilesList()) {
            if (!"park".equals(dictionary.getStringTable(profile.getSampleType().getTypeStrindex()))) {
              continue;
            }
            for (Sample sample : profile.getSamplesList()) {
              if (holds(sample, dictionary, method)) {
                events += sample.getTimestampsUnixNanoCount();
              }
            }
          }
        }
      }
    }
    return events;
  }

  private static boolean holds(Sample sample, ProfilesDictionary dictionary, String method) {
    for (int locationIndex : dictionary.getStackTable(sample.getStackIndex()).getLocationIndicesList()) {
      Location location = dictionary.getLocationTable(locationIndex);
      for (Line line : location.getLinesList()) {
        int nameIndex = dictionary.getFunctionTable(line.getFunctionIndex()).getNameStrindex();
        if (method.equals(dictionary.getStringTable(nameIndex))) {
          return true;
        }
      }
    }
    return false;
  }

  private static List<ExportProfilesServiceRequest> readFiles(Path dir) throws IOException {
    List<ExportProfilesServiceRequest> requests = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".binpb")).sorted().toList()) {
        requests.add(ExportProfilesServiceRequest.parseFrom(Files.readAllBytes(file)));
      }
    }
    return requests;
  }
}
