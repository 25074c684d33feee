package io.spanflight.internal.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Misspelt keys: each unknown {@code otel.spanflight.*} system property and {@code
 * OTEL_SPANFLIGHT_*} environment variable makes one line naming it and the nearest known key; known
 * keys in any spelling the agent accepts make none; the known keys are exactly the documented ones.
 */
class UnknownKeysTest {

  @Test
  void theKnownKeysAreTheDocumentedOnes() {
    Set<String> known = KnownKeys.all();
    List<String> documented = EveryKeyBadValueTest.documentedKeys().stream()
        .filter(key -> key.startsWith(KnownKeys.PREFIX)).toList();
    assertThat(known).as("keys the reader asks for, against docs/configuration.md")
        .containsExactlyInAnyOrderElementsOf(documented);
  }

  @Test
  void aMisspeltSystemPropertyNamesTheNearestKey() {
    assertThat(UnknownKeys.warnings(Set.of("otel.spanflight.cpuu.enabled"), Set.of()))
        .singleElement()
        .satisfies(line -> assertThat(line)
            .contains("system property otel.spanflight.cpuu.enabled", "did you mean otel.spanflight.cpu.enabled?"));
  }

  @Test
  void aMisspeltEnvironmentVariableNamesTheNearestVariable() {
    assertThat(UnknownKeys.warnings(Set.of(), Set.of("OTEL_SPANFLIGHT_EXPORT_INTERVALL")))
        .singleElement()
        .satisfies(line -> assertThat(line).contains(
            "environment variable OTEL_SPANFLIGHT_EXPORT_INTERVALL", "did you mean OTEL_SPANFLIGHT_EXPORT_INTERVAL?"));
  }

  @Test
  void oneLinePerUnknownKeyAndNoneForKnownOnesInAnySpellingTheAgentReads() {
    List<String> lines = UnknownKeys.warnings(
        Set.of("otel.spanflight.cpu.enabled", "otel.spanflight.export-interval", "OTEL.SPANFLIGHT.EXPORTER",
            "otel.spanflight.alloc.throttel", "otel.spanflight.span.costs.max.spans", "otel.service.name", "java.home"),
        Set.of("OTEL_SPANFLIGHT_CPU_PERIOD", "otel_spanflight_park_threshold", "OTEL_SPANFLIGHT_PARK_TRESHOLD",
            "OTEL_SERVICE_NAME", "PATH"));
    assertThat(lines).hasSize(2);
    assertThat(lines.get(0)).contains("otel.spanflight.alloc.throttel", "did you mean otel.spanflight.alloc.throttle?");
    assertThat(lines.get(1)).contains("OTEL_SPANFLIGHT_PARK_TRESHOLD", "did you mean OTEL_SPANFLIGHT_PARK_THRESHOLD?");
    lines.forEach(line -> assertThat(line).doesNotContain("\n"));
  }

  @Test
  void aNameWithControlCharactersStaysOnOneLine() {
    assertThat(UnknownKeys.warnings(Set.of("otel.spanflight.cpu\n.enabled"), Set.of()))
        .singleElement()
        .satisfies(line -> assertThat(line).doesNotContain("\n"));
  }

  @Test
  void editDistanceCountsSingleCharacterEdits() {
    assertThat(UnknownKeys.editDistance("cpuu", "cpu")).isEqualTo(1);
    assertThat(UnknownKeys.editDistance("cpu", "cup")).isEqualTo(2);
    assertThat(UnknownKeys.editDistance("", "abc")).isEqualTo(3);
    assertThat(UnknownKeys.editDistance("interval", "interval")).isZero();
  }
}
