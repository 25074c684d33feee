package io.spanflight.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.spanflight.internal.config.SpanflightConfig;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The config package owns the diagnostic mode's values; the wiring's modes are exactly those, in
 * their order, so that a value the setting accepts always has a mode and no mode lacks a value.
 */
class DiagnosticModeTest {
  @Test
  void everyValueTheSettingAcceptsHasItsMode() {
    for (String value : SpanflightConfig.DIAGNOSTIC_MODES) {
      assertThat(DiagnosticMode.of(value).value()).isEqualTo(value);
    }
  }

  @Test
  void everyModeIsAValueOfTheSettingInItsOrder() {
    assertThat(Arrays.stream(DiagnosticMode.values()).map(DiagnosticMode::value))
        .containsExactlyElementsOf(SpanflightConfig.DIAGNOSTIC_MODES);
  }

  @Test
  void theSettingsDefaultIsAllOfSpanflight() {
    assertThat(DiagnosticMode.of(SpanflightConfig.DEFAULT_DIAGNOSTIC_MODE)).isEqualTo(DiagnosticMode.FULL);
  }
}
