package io.spanflight.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.sdk.autoconfigure.spi.internal.DefaultConfigProperties;
import io.opentelemetry.sdk.resources.Resource;
import io.spanflight.internal.capture.SpanflightContextStorage;
import io.spanflight.internal.config.SpanflightConfig;
import io.spanflight.internal.control.ProfilerControl.Counter;
import io.spanflight.internal.costs.SpanCostLink;
import io.spanflight.internal.registry.LocalRoots;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Run-time settings change the running profiler: a new CPU period ends the run and starts one with
 * it (the samples of both runs are exported, under their own period: nothing recorded is lost); a
 * change with a bad value is refused whole with the start's message and changes nothing; switched
 * off by hand, a change of settings leaves profiling off (the MBean's layer is on top).
 */
class RunTimeSettingsTest {
  @TempDir Path dir;

  @BeforeAll
  static void installBeforeTheStorageIsFirstUsed() {
    SpanflightContextStorage.install();
  }

  @Test
  void aNewPeriodStartsANewRunAndLosesNothing() throws Exception {
    Path out = Files.createDirectories(dir.resolve("profiles"));
    DefaultConfigProperties local = DefaultConfigProperties.createFromMap(Map.of(
        "otel.spanflight.exporter", "file",
        "otel.spanflight.file.directory", out.toString(),
        "otel.spanflight.export.interval", "1s",
        "otel.spanflight.jmx.enabled", "false",
        "otel.spanflight.cpu.enabled", "true",
        "otel.spanflight.cputime.enabled", "false"));
    Spanflight spanflight = Spanflight.start(
        SpanflightConfig.read(local), local, Resource.getDefault(), new LocalRoots(), new SpanCostLink());
    try {
      CpuSamplesByPeriod.burn(1500);
      spanflight.applySettings("otel.spanflight.cpu.period=50ms\n");
      assertThat(spanflight.counter(Counter.STARTS)).isEqualTo(2);
      assertThat(spanflight.settingsOrigins()).containsExactly("otel.spanflight.cpu.period=50ms (jmx)");
      CpuSamplesByPeriod.awaitTrue(() -> spanflight.settingsInForce().contains("jdk.ExecutionSample#period: ours 50 ms, in force 50 ms"));
      CpuSamplesByPeriod.burn(1500);

      assertThatThrownBy(() -> spanflight.applySettings("otel.spanflight.cpu.period=soon\notel.spanflight.exporter=none"))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("otel.spanflight.exporter is read at start only")
          .hasMessageContaining("invalid value 'soon' for otel.spanflight.cpu.period");
      assertThatThrownBy(() -> spanflight.applySettings("otel.spanflight.cpu.period=soon"))
          .hasMessageContaining("invalid value 'soon' for otel.spanflight.cpu.period (OTEL_SPANFLIGHT_CPU_PERIOD)");
      assertThat(spanflight.counter(Counter.STARTS)).as("nothing restarted").isEqualTo(2);
      assertThat(spanflight.settingsOrigins()).containsExactly("otel.spanflight.cpu.period=50ms (jmx)");

      spanflight.applySettings("otel.spanflight.cpu.period=50ms\n");
      assertThat(spanflight.counter(Counter.STARTS)).as("the same values: no new run").isEqualTo(2);

      assertThat(spanflight.changeEnabled(false)).isTrue();
      spanflight.applySettings("otel.spanflight.cpu.period=30ms\notel.spanflight.enabled=false");
      assertThat(spanflight.running()).as("off by hand stays off").isFalse();
      assertThat(spanflight.configuration()).contains("cpu(period=30 ms)");
      spanflight.clearSettings();
      assertThat(spanflight.running()).as("the local settings say on").isTrue();
      assertThat(spanflight.configuration()).contains("cpu(period=20 ms)");
      CpuSamplesByPeriod.burn(500);
    } finally {
      spanflight.shutdown();
    }

    Map<Long, Long> samplesByPeriod = CpuSamplesByPeriod.in(out);
    assertThat(samplesByPeriod).as("CPU samples by the period of their profile")
        .containsKeys(20_000_000L, 50_000_000L);
  }
}
