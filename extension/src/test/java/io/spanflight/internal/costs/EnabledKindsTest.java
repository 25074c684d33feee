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
 * JVM has the CPU-time sampler (JDK 25+ on Linux, no default.jfc cap), as the CPU source's default
 * decides it.
 */
class EnabledKindsTest {
  private static final List<SourceSettings> CPU_TIME_ON = SpanflightConfig.read(DefaultConfigProperties.createFromMap(
      Map.of("otel.spanflight.cputime.enabled", "true"))).sources();

  @Test
  void theCpuTimeKindOnlyWhereTheCpuTimeSamplerRuns() {
    assertThat(SpanCosts.enabledKinds(CPU_TIME_ON, false, 25, "Linux")[CostKind.CPU_TIME]).isTrue();
    assertThat(SpanCosts.enabledKinds(CPU_TIME_ON, false, 25, "Mac OS X")[CostKind.CPU_TIME]).as("not Linux").isFalse();
    assertThat(SpanCosts.enabledKinds(CPU_TIME_ON, false, 21, "Linux")[CostKind.CPU_TIME]).as("before 25").isFalse();
    assertThat(SpanCosts.enabledKinds(CPU_TIME_ON, true, 25, "Linux")[CostKind.CPU_TIME]).as("capped").isFalse();
  }
}
