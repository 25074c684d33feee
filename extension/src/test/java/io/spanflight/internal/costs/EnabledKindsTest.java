package io.spanflight.internal.costs;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.sdk.autoconfigure.spi.internal.DefaultConfigProperties;
import io.spanflight.internal.config.SourceSettings;
import io.spanflight.internal.config.SpanflightConfig;
import io.spanflight.internal.format.CostKind;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A span cost kind is expected only where its events will arrive: the CPU-time kind where the
 * JVM has the CPU-time sampler (JDK 25+ on Linux, no default.jfc cap), by the same rule that makes it
 * the default CPU source (the rule's cases: {@code CpuSourceDefaultTest}).
 */
class EnabledKindsTest {
  private static final List<SourceSettings> CPU_TIME_ON = SpanflightConfig.read(DefaultConfigProperties.createFromMap(
      Map.of("otel.spanflight.cputime.enabled", "true"))).sources();

  @Test
  void theCpuTimeKindOnlyWhereTheCpuTimeSamplerRuns() {
    assertThat(SpanCosts.enabledKinds(CPU_TIME_ON, true)[CostKind.CPU_TIME]).isTrue();
    assertThat(SpanCosts.enabledKinds(CPU_TIME_ON, false)[CostKind.CPU_TIME]).as("no sampler here").isFalse();
  }

  @Test
  void theConfigAnswersForThisJvmAsTheCpuSourceDefaultDid() {
    SpanflightConfig defaults = SpanflightConfig.read(DefaultConfigProperties.createFromMap(Map.of()));
    SpanflightConfig capped = SpanflightConfig.read(DefaultConfigProperties.createFromMap(
        Map.of("otel.spanflight.jfr.cap", "default")));
    boolean cpuTimeDefault = defaults.sources().stream().anyMatch(s -> s.name().equals("cputime") && s.enabled());
    assertThat(defaults.cpuTimeUsable()).isEqualTo(cpuTimeDefault);
    assertThat(capped.cpuTimeUsable()).as("capped").isFalse();
  }
}
