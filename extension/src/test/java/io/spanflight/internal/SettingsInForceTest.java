package io.spanflight.internal;

import static org.assertj.core.api.Assertions.assertThat;

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
      CpuSamplesByPeriod.burn(1500);
      try (Recording theirs = new Recording()) {
        theirs.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(10));
        theirs.start();
        CpuSamplesByPeriod.burn(1500);
        CpuSamplesByPeriod.awaitTrue(() -> spanflight.settingsInForce().contains("jdk.ExecutionSample#period: ours 20 ms, in force 10 ms"));
        theirs.stop();
      }
      CpuSamplesByPeriod.burn(1500);
      CpuSamplesByPeriod.awaitTrue(() -> spanflight.settingsInForce().contains("jdk.ExecutionSample#period: ours 20 ms, in force 20 ms"));

      assertThat(spanflight.switchOff()).isTrue();
      assertThat(spanflight.running()).isFalse();
      assertThat(threadsNamed("spanflight-")).as("our threads after switching off").isEmpty();
      assertThat(spanflight.switchOn()).isTrue();
      assertThat(spanflight.switchOn()).as("already on").isFalse();
      CpuSamplesByPeriod.burn(1500);
    } finally {
      spanflight.shutdown();
    }
    assertThat(threadsNamed("spanflight-")).as("our threads after shutdown").isEmpty();

    Map<Long, Long> samplesByPeriod = CpuSamplesByPeriod.in(out);
    assertThat(samplesByPeriod).as("CPU samples by the period of their profile").containsOnlyKeys(10_000_000L, 20_000_000L);
  }

  private static List<String> threadsNamed(String prefix) {
    return Thread.getAllStackTraces().keySet().stream().map(Thread::getName).filter(n -> n.startsWith(prefix)).toList();
  }
}
