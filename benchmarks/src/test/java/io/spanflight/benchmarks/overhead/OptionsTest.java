package io.spanflight.benchmarks.overhead;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Options that the run would silently ignore are refused, naming the option. */
class OptionsTest {
  @Test
  void aSoakOfAnAppIsRefused() {
    assertThatThrownBy(() -> OverheadHarness.Options.parse(new String[] {"--soak", "600", "--app", "app.jar"}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--soak runs the demo service")
        .hasMessageContaining("--app");
  }

  @Test
  void aSoakWithARecordingOfPairsIsRefusedNamingTheOption() {
    assertThatThrownBy(() -> OverheadHarness.Options.parse(new String[] {"--soak", "600", "--tenure", "true"}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--tenure applies to pairs only");
    assertThat(OverheadHarness.Options.parse(new String[] {"--tenure", "true", "--jit", "true"}).tenure).isTrue();
  }

  @Test
  void aHeapWithoutAnAppIsRefused() {
    assertThatThrownBy(() -> OverheadHarness.Options.parse(new String[] {"--heap", "-Xmx2g", "--pairs", "1"}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--heap applies to an --app only")
        .hasMessageContaining("-Xmx2g");
  }

  @Test
  void anAppWithItsHeapAndTheDemoSoakAreAccepted() {
    assertThat(OverheadHarness.Options.parse(new String[] {"--app", "app.jar", "--heap", "-Xmx2g"}).heap)
        .containsExactly("-Xmx2g");
    assertThat(OverheadHarness.Options.parse(new String[] {"--soak", "600"}).soakSeconds).isEqualTo(600);
  }
}
