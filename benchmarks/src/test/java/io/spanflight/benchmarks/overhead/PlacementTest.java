package io.spanflight.benchmarks.overhead;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class PlacementTest {
  @Test
  void readsRangesAndSingleCpusFromTheStatusFile() {
    List<String> status = List.of("Name:\tjava", "Cpus_allowed:\tff", "Cpus_allowed_list:\t0-2,5,7-8", "Mems_allowed:\t1");

    assertThat(Placement.allowedCpus(status)).containsExactly(0, 1, 2, 5, 7, 8);
  }

  @Test
  void withoutTheLineThereIsNothingToPinTo() {
    assertThatThrownBy(() -> Placement.allowedCpus(List.of("Name:\tjava")))
        .hasMessageContaining("Cpus_allowed_list");
  }

  @Test
  void pinIsOffUnlessAskedForAndTakesOnlyTrueOrFalse() {
    assertThat(OverheadHarness.Options.parse(new String[] {}).pin).isFalse();
    assertThat(OverheadHarness.Options.parse(new String[] {"--pin", "true"}).pin).isTrue();
    assertThatThrownBy(() -> OverheadHarness.Options.parse(new String[] {"--pin", "yes"}))
        .hasMessage("--pin yes: expected true or false");
  }

  @Test
  void aPinnedCommandStartsWithTasksetAndKeepsTheCpuCountTheJvmSees() throws Exception {
    Placement[] halves = Placement.halves(); // this machine: at least 2 CPUs (the README's machine has 2)

    List<String> first = halves[0].command("java", List.of("-Xmx1g", "-jar", "app.jar"));
    List<String> second = halves[1].command("java", List.of("-jar", "app.jar"));

    assertThat(first.subList(0, 2)).containsExactly("taskset", "-c");
    assertThat(first.get(2)).isNotEqualTo(second.get(2));
    assertThat(first.subList(3, 5)).containsExactly("java",
        "-XX:ActiveProcessorCount=" + Placement.allowedCpus(java.nio.file.Files.readAllLines(
            java.nio.file.Path.of("/proc/self/status"))).size());
    assertThat(first.subList(5, 8)).containsExactly("-Xmx1g", "-jar", "app.jar");
    assertThat(Placement.ANYWHERE.command("java", List.of("-jar", "app.jar"))).containsExactly("java", "-jar", "app.jar");
  }
}
