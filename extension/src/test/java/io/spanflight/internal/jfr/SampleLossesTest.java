package io.spanflight.internal.jfr;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.sdk.autoconfigure.spi.internal.DefaultConfigProperties;
import io.spanflight.internal.LogLines;
import io.spanflight.internal.config.SourceSettings;
import io.spanflight.internal.config.SpanflightConfig;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.logging.Level;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Samples the CPU-time sampler reports lost are said: the first loss at once, with its share of the
 * source's samples; later ones at most once every {@value SampleLosses#LINE_EVERY} intervals, with
 * the count since the previous line; nothing while nothing is lost; counted since startup.
 */
class SampleLossesTest {
  private static final int CPU_TIME = BlindSources.WATCHED.indexOf(SourceSettings.CPU_TIME);
  private final long[] lost = new long[BlindSources.WATCHED.size()];
  private final long[] delivered = new long[BlindSources.WATCHED.size()];
  private final BlindSources sources = new BlindSources(i -> delivered[i], () -> new long[2], i -> lost[i]);
  private final List<JfrSource> cpuTime = JfrSources.of(
      SpanflightConfig.read(DefaultConfigProperties.createFromMap(
          Map.of("otel.spanflight.cputime.enabled", "true", "otel.spanflight.cpu.enabled", "false"))).sources(),
      Set.of(JfrSources.CPU_TIME_SAMPLE), JfcCap.NONE);
  private LogLines lines;

  @BeforeEach
  void listen() {
    lost[CPU_TIME] = 5; // lost in an earlier run: not this one's
    delivered[CPU_TIME] = 100;
    lines = LogLines.listen("io.spanflight");
    sources.runStarted();
  }

  @AfterEach
  void stopListening() {
    lines.close();
  }

  private void interval(long lostSamples, long deliveredSamples) {
    lost[CPU_TIME] += lostSamples;
    delivered[CPU_TIME] += deliveredSamples;
    sources.intervalEnded(cpuTime, event -> "no cause");
  }

  @Test
  void theFirstLossIsSaidAtOnceWithItsShare() {
    interval(0, 1000);
    assertThat(lines.records()).as("nothing lost, nothing said").isEmpty();
    interval(50, 950);

    assertThat(lines.records()).singleElement().satisfies(line -> {
      assertThat(line.getLevel()).isEqualTo(Level.WARNING);
      assertThat(line.getMessage()).contains("cputime source lost 50 samples (5.0 % of 1000)",
          "these " + JfrSources.CPU_TIME_SAMPLE + " events", "otel.spanflight.cputime.period",
          "spanflight.source.lost_samples");
    });
    assertThat(sources.lostSamples(SourceSettings.CPU_TIME)).as("since startup").isEqualTo(55);
    assertThat(sources.lostSamples(SourceSettings.ALLOCATION)).isZero();
  }

  @Test
  void laterLossesAreSummedIntoOneLineEverySixtyIntervals() {
    interval(10, 990);
    assertThat(lines.records()).hasSize(1);
    for (int i = 1; i < SampleLosses.LINE_EVERY; i++) {
      interval(i == 3 || i == 7 ? 20 : 0, 980);
    }
    assertThat(lines.records()).as("within sixty intervals of the last line").hasSize(1);
    interval(0, 1000);
    assertThat(lines.records()).hasSize(2);
    assertThat(lines.records().get(1).getMessage()).contains("lost 40 samples");
    for (int i = 0; i < 2 * SampleLosses.LINE_EVERY; i++) {
      interval(0, 1000);
    }
    assertThat(lines.records()).as("nothing lost since").hasSize(2);
    interval(1, 999);
    assertThat(lines.records()).hasSize(3);
    assertThat(lines.records().get(2).getMessage()).as("only the stretch with the loss counts")
        .contains("lost 1 sample (0.1 % of 1000)");
  }
}
