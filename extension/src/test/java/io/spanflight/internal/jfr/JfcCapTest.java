package io.spanflight.internal.jfr;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.sdk.autoconfigure.spi.internal.DefaultConfigProperties;
import io.spanflight.internal.config.SpanflightConfig;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code otel.spanflight.jfr.cap=default} against this JDK's real default.jfc. */
class JfcCapTest {

  private static List<JfrSource> sources(Map<String, String> properties, JfcCap cap) {
    SpanflightConfig config = SpanflightConfig.read(DefaultConfigProperties.createFromMap(properties));
    return JfrSources.of(config.sources(), JfrSources.availableEventTypes(), cap);
  }

  private static JfrSource named(List<JfrSource> sources, String event) {
    return sources.stream().filter(s -> s.eventName.equals(event)).findFirst().orElse(null);
  }

  @Test
  void denserThanDefaultJfcIsRaisedToIt() {
    List<JfrSource> sources =
        sources(
            Map.of(
                "otel.spanflight.jfr.cap", "default",
                "otel.spanflight.cpu.period", "5ms",
                "otel.spanflight.alloc.enabled", "true",
                "otel.spanflight.alloc.throttle", "1000/s",
                "otel.spanflight.lock.threshold", "1ms"),
            JfcCap.ofDefaultJfc());
    JfrSource cpu = named(sources, "jdk.ExecutionSample");
    assertThat(cpu.settingValue).isEqualTo("20 ms");
    assertThat(cpu.typeAt(0)).isEqualTo(io.spanflight.internal.profile.SampleType.cpuSamples(20_000_000L));
    assertThat(named(sources, "jdk.ObjectAllocationSample").settingValue).isEqualTo("150/s");
    JfrSource lock = named(sources, "jdk.JavaMonitorEnter");
    assertThat(lock.settingValue).isEqualTo("20 ms");
    assertThat(lock.minDurationNanos).isEqualTo(20_000_000L);
  }

  @Test
  void sparserThanDefaultJfcStaysOurs() {
    List<JfrSource> sources =
        sources(Map.of("otel.spanflight.jfr.cap", "default", "otel.spanflight.cpu.period", "50ms",
            "otel.spanflight.park.threshold", "100ms"), JfcCap.ofDefaultJfc());
    assertThat(named(sources, "jdk.ExecutionSample").settingValue).isEqualTo("50 ms");
    assertThat(named(sources, "jdk.ThreadPark").settingValue).isEqualTo("100 ms");
  }

  @Test
  void withoutCapOursAsConfigured() {
    List<JfrSource> sources =
        sources(Map.of("otel.spanflight.cpu.enabled", "true", "otel.spanflight.cpu.period", "5ms"), JfcCap.NONE);
    assertThat(named(sources, "jdk.ExecutionSample").settingValue).isEqualTo("5 ms");
  }

  @Test
  void aSourceDefaultJfcLeavesOffOrAFilterItDoesNotHaveIsSkipped() {
    assertThat(JfcCap.capped("filter", "com.example.Foo::bar", "")).isNull();
    JfcCap cap = new JfcCap(Map.of("jdk.ExecutionSample#enabled", "false", "jdk.ExecutionSample#period", "20 ms"));
    assertThat(named(sources(Map.of("otel.spanflight.cpu.enabled", "true"), cap), "jdk.ExecutionSample")).isNull();
  }

  /**
   * {@code default.jfc} leaves the CPU-time sampler off: with the cap, the default CPU source is the
   * execution sampler on every JDK, at {@code default.jfc}'s period or sparser.
   */
  @Test
  void withTheCapTheDefaultCpuSourceIsTheExecutionSampler() {
    List<JfrSource> sources = sources(Map.of("otel.spanflight.jfr.cap", "default"), JfcCap.ofDefaultJfc());
    assertThat(named(sources, "jdk.ExecutionSample")).isNotNull();
    assertThat(named(sources, "jdk.CPUTimeSample")).isNull();
  }

  @Test
  void ratesAndPeriods() {
    assertThat(JfcCap.capped("throttle", "100/s", "150/s")).isEqualTo("100/s");
    assertThat(JfcCap.capped("throttle", "10/ms", "150/s")).isEqualTo("150/s");
    assertThat(JfcCap.capped("throttle", "10 ms", "500/s")).as("not comparable: the JDK's").isEqualTo("500/s");
    assertThat(JfcCap.capped("period", "10 ms", "20 ms")).isEqualTo("20 ms");
    assertThat(JfcCap.capped("threshold", "0 ms", "20 ms")).isEqualTo("20 ms");
  }
}
