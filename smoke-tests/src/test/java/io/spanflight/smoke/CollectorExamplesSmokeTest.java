package io.spanflight.smoke;

import static org.assertj.core.api.Assertions.assertThat;

import io.spanflight.smoke.collector.RealCollector;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every Collector configuration in {@code examples/collector/} loads in the Collector we test
 * with ({@code otelcol validate}): the base on its own, each other file laid over it, as their
 * comments tell users to run them. And without the {@code service.profilesSupport} feature gate the
 * Collector refuses the profiles pipeline, as the README says.
 */
class CollectorExamplesSmokeTest extends SmokeTestBase {
  static final Path EXAMPLES = Path.of("examples/collector");
  static final Path REPO = CollectorRoundTripSmokeTest.REPO;

  @Test
  void everyExampleConfigLoadsInTheCollector() throws Exception {
    List<Path> overlays = overlays();
    assertThat(overlays).as("overlays in " + EXAMPLES).isNotEmpty();
    check(List.of(CollectorRoundTripSmokeTest.CONFIG));
    for (Path overlay : overlays) {
      check(List.of(CollectorRoundTripSmokeTest.CONFIG, overlay));
    }
  }

  @Test
  void withoutTheFeatureGateTheProfilesPipelineIsRefused() throws Exception {
    RealCollector.Validation validation =
        RealCollector.validate(REPO, List.of(CollectorRoundTripSmokeTest.CONFIG), false);

    assertThat(validation.exitCode()).as(validation.output()).isNotZero();
    assertThat(validation.output()).contains("service.profilesSupport");
  }

  private static void check(List<Path> configs) throws Exception {
    RealCollector.Validation validation = RealCollector.validate(REPO, configs, true);
    assertThat(validation.exitCode()).as("otelcol validate " + configs + ":\n" + validation.output()).isZero();
  }

  private static List<Path> overlays() throws IOException {
    try (Stream<Path> files = Files.list(REPO.resolve(EXAMPLES))) {
      return files.map(file -> EXAMPLES.resolve(file.getFileName()))
          .filter(file -> file.toString().endsWith(".yaml") && !file.equals(CollectorRoundTripSmokeTest.CONFIG))
          .sorted().toList();
    }
  }
}
