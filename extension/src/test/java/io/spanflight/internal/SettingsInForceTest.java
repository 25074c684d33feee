package io.spanflight.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.opentelemetry.proto.profiles.v1development.Profile;
import io.opentelemetry.proto.profiles.v1development.ProfilesDictionary;
import io.opentelemetry.sdk.autoconfigure.spi.internal.DefaultConfigProperties;
import io.opentelemetry.sdk.resources.Resource;
import io.spanflight.internal.capture.SpanflightContextStorage;
import io.spanflight.internal.config.SpanflightConfig;
import io.spanflight.internal.registry.LocalRoots;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import jdk.jfr.Recording;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A user's own recording with a denser ExecutionSample period, in the same JVM as ours: while it
 * runs, our CPU samples go to a profile whose period is the one in force (10 ms), before and after
 * to one of our 20 ms; the control view shows both values; switching off ends our threads and a
 * new run starts cleanly.
 */
class SettingsInForceTest {
  private static volatile long sink;

  @TempDir Path dir;

  @BeforeAll
  static void installBeforeTheStorageIsFirstUsed() {
    SpanflightContextStorage.install();
  }

  @Test
  void samplesTakeThePeriodInForceAndTheRunSwitchesOffAndOn() throws Exception {
    Path out = Files.createDirectories(dir.resolve("profiles"));
    SpanflightConfig config =
        SpanflightConfig.read(
            DefaultConfigProperties.createFromMap(
                Map.of(
                    "otel.spanflight.exporter", "file",
                    "otel.spanflight.file.directory", out.toString(),
                    "otel.spanflight.export.interval", "1s",
                    "otel.spanflight.jmx.enabled", "false",
                    // the event whose period a user's recording makes denser, on every JDK
                    "otel.spanflight.cpu.enabled", "true",
                    "otel.spanflight.cputime.enabled", "false")));
    Spanflight spanflight = Spanflight.start(config, Resource.getDefault(), new LocalRoots());
    try {
      burn(1500);
      try (Recording theirs = new Recording()) {
        theirs.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(10));
        theirs.start();
        burn(1500);
        awaitTrue(() -> spanflight.settingsInForce().contains("jdk.ExecutionSample#period: ours 20 ms, in force 10 ms"));
        theirs.stop();
      }
      burn(1500);
      awaitTrue(() -> spanflight.settingsInForce().contains("jdk.ExecutionSample#period: ours 20 ms, in force 20 ms"));

      assertThat(spanflight.switchOff()).isTrue();
      assertThat(spanflight.running()).isFalse();
      assertThat(threadsNamed("spanflight-")).as("our threads after switching off").isEmpty();
      assertThat(spanflight.switchOn()).isTrue();
      assertThat(spanflight.switchOn()).as("already on").isFalse();
      burn(1500);
    } finally {
      spanflight.shutdown();
    }
    assertThat(threadsNamed("spanflight-")).as("our threads after shutdown").isEmpty();

    Map<Long, Long> samplesByPeriod = new TreeMap<>();
    try (Stream<Path> files = Files.list(out)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".binpb")).toList()) {
        ExportProfilesServiceRequest request = ExportProfilesServiceRequest.parseFrom(Files.readAllBytes(file));
        ProfilesDictionary dictionary = request.getDictionary();
        for (Profile profile : request.getResourceProfiles(0).getScopeProfiles(0).getProfilesList()) {
          if (dictionary.getStringTable(profile.getSampleType().getTypeStrindex()).equals("samples")) {
            long count = profile.getSamplesList().stream().mapToLong(s -> s.getTimestampsUnixNanoCount()).sum();
            samplesByPeriod.merge(profile.getPeriod(), count, Long::sum);
          }
        }
      }
    }
    assertThat(samplesByPeriod).as("CPU samples by the period of their profile").containsOnlyKeys(10_000_000L, 20_000_000L);
  }

  private static void burn(long millis) {
    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    while (System.nanoTime() < end) {
      for (int i = 0; i < 100_000; i++) {
        sink += i * 31L;
      }
    }
  }

  private static List<String> threadsNamed(String prefix) {
    return Thread.getAllStackTraces().keySet().stream().map(Thread::getName).filter(n -> n.startsWith(prefix)).toList();
  }

  private static void awaitTrue(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("condition not met within 20 s").isLessThan(deadline);
      TimeUnit.MILLISECONDS.sleep(50); // poll interval
    }
  }
}
