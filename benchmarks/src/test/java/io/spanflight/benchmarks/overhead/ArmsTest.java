package io.spanflight.benchmarks.overhead;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.sdk.autoconfigure.spi.internal.DefaultConfigProperties;
import io.spanflight.internal.config.SourceSettings;
import io.spanflight.internal.config.SpanflightConfig;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each arm that runs Spanflight in part sets the diagnostic mode of its part, in a form Spanflight
 * accepts: a value it refused would run all of Spanflight (one warning), and the arm would
 * silently measure the wrong thing.
 */
class ArmsTest {
  private static final Arms.Jars JARS =
      new Arms.Jars(Path.of("agent.jar"), Path.of("spanflight.jar"), Path.of("splunk.jar"), Path.of("pyroscope.jar"));

  @ParameterizedTest
  @ValueSource(strings = {"jfr-only", "capture-only", "stream-only", "reader-only", "jfr-only-twin", "jfr-only-cpu"})
  void aPartialArmRunsSpanflightInTheDiagnosticModeOfItsPart(String name) {
    Arm arm = Arms.arm(name, JARS, "http://127.0.0.1:4318", 25);

    SpanflightConfig config = SpanflightConfig.read(DefaultConfigProperties.createFromMap(spanflightProperties(arm)));

    assertThat(config.errors()).isEmpty();
    assertThat(config.defaulted()).isEmpty();
    assertThat(config.diagnosticMode()).isEqualTo(name.startsWith("jfr-only") ? "jfr-only" : name);
  }

  @ParameterizedTest
  @ValueSource(strings = {"spanflight", "spanflight-cpu", "spanflight-all", "spanflight-costs"})
  void aFullArmRunsAllOfSpanflight(String name) {
    Arm arm = Arms.arm(name, JARS, "http://127.0.0.1:4318", 25);

    SpanflightConfig config = SpanflightConfig.read(DefaultConfigProperties.createFromMap(spanflightProperties(arm)));

    assertThat(config.diagnosticMode()).isEqualTo("full");
  }

  @ParameterizedTest
  @ValueSource(strings = {"spanflight-alloc", "jfr-only-alloc", "spanflight-lock", "spanflight-cputime"})
  void aOneSourceArmRunsThatSourceAloneEvenWhereItIsOffByDefault(String name) {
    Arm arm = Arms.arm(name, JARS, "http://127.0.0.1:4318", 25);
    String source = name.substring(name.lastIndexOf('-') + 1);

    SpanflightConfig config = SpanflightConfig.read(DefaultConfigProperties.createFromMap(spanflightProperties(arm)));

    assertThat(config.errors()).isEmpty();
    assertThat(config.sources()).filteredOn(SourceSettings::enabled).extracting(SourceSettings::name)
        .containsExactly(source);
  }

  @Test
  void theWithAllocArmAddsTheAllocationSourceToTheDefaults() {
    Arm arm = Arms.arm("spanflight-with-alloc", JARS, "http://127.0.0.1:4318", 25);

    SpanflightConfig config = SpanflightConfig.read(DefaultConfigProperties.createFromMap(spanflightProperties(arm)));
    SpanflightConfig defaults = SpanflightConfig.read(DefaultConfigProperties.createFromMap(Map.of()));

    assertThat(arm.baseline()).isEqualTo("spanflight");
    assertThat(config.sources()).filteredOn(SourceSettings::enabled).extracting(SourceSettings::name)
        .contains(SourceSettings.ALLOCATION)
        .containsAll(defaults.sources().stream().filter(SourceSettings::enabled).map(SourceSettings::name).toList());
    assertThat(defaults.sources()).filteredOn(SourceSettings::enabled).extracting(SourceSettings::name)
        .doesNotContain(SourceSettings.ALLOCATION);
  }

  @Test
  void theOtherArmRunsTheOtherJarAtItsDefaultsAndNamesTheMissingOption() {
    Arms.Jars withOther = new Arms.Jars(JARS.agent(), JARS.extension(), JARS.splunkAgent(), JARS.pyroscopeExtension(),
        Path.of("main/spanflight.jar"));
    Arm arm = Arms.arm(Arms.OTHER, withOther, "http://127.0.0.1:4318", 25);

    assertThat(arm.jvmArgs()).contains("-Dotel.javaagent.extensions=main/spanflight.jar")
        .noneMatch(arg -> arg.startsWith("-Dotel.spanflight."));
    assertThatThrownBy(() -> Arms.arm(Arms.OTHER, JARS, "http://127.0.0.1:4318", 25))
        .hasMessageContaining("--other-jar");
  }

  /** The arm's {@code -Dotel.spanflight.*} options, as Spanflight reads them. */
  private static Map<String, String> spanflightProperties(Arm arm) {
    Map<String, String> properties = new HashMap<>();
    for (String arg : arm.jvmArgs()) {
      if (arg.startsWith("-Dotel.spanflight.")) {
        int equals = arg.indexOf('=');
        properties.put(arg.substring(2, equals), arg.substring(equals + 1));
      }
    }
    return properties;
  }
}
