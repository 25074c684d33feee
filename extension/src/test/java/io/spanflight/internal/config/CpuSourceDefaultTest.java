package io.spanflight.internal.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.sdk.autoconfigure.spi.internal.DefaultConfigProperties;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * One CPU source by default: the CPU-time sampler where the JVM has it, else the execution
 * sampler; an explicit switch of either stays as set.
 */
class CpuSourceDefaultTest {

  /** The two CPU sources as read from {@code properties}; the errors of the read go to {@code errors}. */
  private static List<String> cpuSources(Map<String, String> properties, boolean cpuTimeUsable, List<String> errors) {
    Settings settings = new Settings(DefaultConfigProperties.createFromMap(properties));
    return SourceSettings.read(settings, errors, cpuTimeUsable).stream()
        .filter(s -> s.name().equals(SourceSettings.CPU) || s.name().equals(SourceSettings.CPU_TIME))
        .map(SourceSettings::toString)
        .toList();
  }

  /** As above, for settings that must read without an error. */
  private static List<String> cpuSources(Map<String, String> properties, boolean cpuTimeUsable) {
    List<String> errors = new ArrayList<>();
    List<String> shown = cpuSources(properties, cpuTimeUsable, errors);
    assertThat(errors).isEmpty();
    return shown;
  }

  @Test
  void theCpuTimeSamplerWhereTheJvmHasIt() {
    assertThat(cpuSources(Map.of(), true)).containsExactly("cpu(off)", "cputime(period=20 ms)");
  }

  @Test
  void theExecutionSamplerElsewhere() {
    assertThat(cpuSources(Map.of(), false)).containsExactly("cpu(period=20 ms)", "cputime(off)");
  }

  @Test
  void theCpuTimeSamplerSwitchedOffLeavesTheExecutionSampler() {
    assertThat(cpuSources(Map.of("otel.spanflight.cputime.enabled", "false"), true))
        .containsExactly("cpu(period=20 ms)", "cputime(off)");
  }

  @Test
  void anExplicitSwitchStaysAsSet() {
    assertThat(cpuSources(Map.of("otel.spanflight.cpu.enabled", "true"), true))
        .containsExactly("cpu(period=20 ms)", "cputime(period=20 ms)");
    assertThat(cpuSources(Map.of("otel.spanflight.cpu.enabled", "false", "otel.spanflight.cputime.enabled", "false"), true))
        .containsExactly("cpu(off)", "cputime(off)");
    // asked for where the JVM lacks it: on as asked (the JFR sources skip it with an info line), and
    // the execution sampler still records CPU
    assertThat(cpuSources(Map.of("otel.spanflight.cputime.enabled", "true"), false))
        .containsExactly("cpu(period=20 ms)", "cputime(period=20 ms)");
  }

  @Test
  void theCpuPeriodAUserSetIsTheCpuTimeSamplersTooUnlessItHasItsOwn() {
    assertThat(cpuSources(Map.of("otel.spanflight.cpu.period", "10ms"), true))
        .containsExactly("cpu(off)", "cputime(period=10 ms)");
    assertThat(cpuSources(Map.of("otel.spanflight.cpu.period", "10ms", "otel.spanflight.cputime.period", "30ms"), true))
        .containsExactly("cpu(off)", "cputime(period=30 ms)");
  }

  @Test
  void aBadCpuPeriodIsReportedOnceAndTheCpuTimeSamplerKeepsItsDefault() {
    List<String> errors = new ArrayList<>();
    List<String> shown = cpuSources(Map.of("otel.spanflight.cpu.period", "often"), true, errors);
    assertThat(shown).containsExactly("cpu(off)", "cputime(period=20 ms)");
    assertThat(errors).singleElement().asString().contains("otel.spanflight.cpu.period").contains("often");
  }

  @Test
  void aBadCpuTimePeriodLeavesTheExecutionSampler() {
    List<String> errors = new ArrayList<>();
    List<String> shown = cpuSources(Map.of("otel.spanflight.cputime.period", "fast"), true, errors);
    assertThat(shown).containsExactly("cpu(period=20 ms)", "cputime(off)");
    assertThat(errors).singleElement().asString().contains("otel.spanflight.cputime.period").contains("fast");
  }

  @Test
  void usableOnJdk25AndLaterOnLinuxWithoutTheDefaultJfcCap() {
    assertThat(SourceSettings.cpuTimeUsable(25, "Linux", false)).isTrue();
    assertThat(SourceSettings.cpuTimeUsable(26, "Linux", false)).isTrue();
    assertThat(SourceSettings.cpuTimeUsable(21, "Linux", false)).isFalse();
    assertThat(SourceSettings.cpuTimeUsable(25, "Mac OS X", false)).isFalse();
    assertThat(SourceSettings.cpuTimeUsable(25, "Windows 11", false)).isFalse();
    assertThat(SourceSettings.cpuTimeUsable(25, "Linux", true)).isFalse();
  }
}
