package io.spanflight.internal.jfr;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.sdk.autoconfigure.spi.internal.DefaultConfigProperties;
import io.spanflight.internal.LogLines;
import io.spanflight.internal.config.SpanflightConfig;
import io.spanflight.internal.jfr.clock.CalibrationEvent;
import io.spanflight.internal.jfr.join.JfrReaders;
import io.spanflight.internal.jfr.join.PlainJoiners;
import io.spanflight.internal.jfr.join.SampleJoiner;
import io.spanflight.internal.profile.ProfileCollector;
import java.time.Duration;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.logging.Level;
import jdk.jfr.Recording;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Spanflight's reader failing under a running stream, for each way the test seam {@code
 * spanflight.test.damageChunks} damages what it reads (the repository's files stay as JFR wrote
 * them): samples flow through our reader first, then it meets the damage, {@link JfrReaders}
 * switches to the JDK's stream with one warning naming what failed and counts one fallback, and
 * samples flow on through the JDK's stream. What {@code AccuracySmokeTest} shows for the
 * unknown version under the real agent, here in-process for every kind.
 */
class ReaderFallbackTest {
  private static final String DAMAGE = "spanflight.test.damageChunks";
  private static final int DAMAGE_AFTER_SECONDS = 3;
  private static final Duration WITHIN = Duration.ofSeconds(30);

  @AfterEach
  void undamage() {
    System.clearProperty(DAMAGE);
  }

  @ParameterizedTest
  @CsvSource({
      "version, JFR chunk format 3.0",
      "truncated, is outside [68, ",
      "metadata, string encoding 6 at ",
      "layout, event jdk.ExecutionSample has no field sampledThread, which the reader's plan reads",
  })
  void aChunkOurReaderCannotReadFallsBackToTheJdksStreamAndSamplesFlowOn(String kind, String failure)
      throws Exception {
    System.setProperty(DAMAGE, kind + ":" + DAMAGE_AFTER_SECONDS);
    // the execution sampler on every JDK: the layout damage is defined on jdk.ExecutionSample
    SpanflightConfig config = SpanflightConfig.read(DefaultConfigProperties.createFromMap(
        Map.of("otel.spanflight.cpu.enabled", "true", "otel.spanflight.cputime.enabled", "false")));
    ProfileCollector collector = new ProfileCollector();
    SampleJoiner joiner = PlainJoiners.into(collector);
    JfrReaders readers = joiner.readers();
    JfrSampleStream stream = new JfrSampleStream(config.sources(), joiner, collector, Duration.ofSeconds(30));
    try (LogLines lines = LogLines.listen(JfrReaders.class)) {
      stream.start();

      burnUntil(() -> joiner.counts().samples() > 0, () -> "samples through our reader, " + joiner.counts().summary());
      assertThat(readers.inUse()).as("read by ours until the damage is due").isEqualTo("spanflight");

      // the metadata damages take effect at the next metadata event: a recording starting ends
      // JFR's chunk, and the next begins with its metadata
      burnUntil(() -> {
        try (Recording boundary = new Recording()) {
          boundary.start();
        }
        return readers.jdk();
      }, () -> "the fallback, " + joiner.counts().summary());
      long atFallback = joiner.counts().samples();
      burnUntil(() -> joiner.counts().samples() > atFallback, () -> "samples through the JDK's stream, " + joiner.counts().summary());

      assertThat(readers.fallbacks()).isEqualTo(1);
      assertThat(readers.describe()).isEqualTo("reader=jdk (auto, fallbacks 1)");
      assertThat(lines.records()).singleElement().satisfies(line -> {
        assertThat(line.getLevel()).isEqualTo(Level.WARNING);
        assertThat(line.getMessage()).contains("cannot read what this JDK", failure,
            "Spanflight reads its recording with the JDK's event stream");
      });
    } finally {
      stream.close();
    }
  }

  private static long sink;

  /**
   * Burns CPU (so that JFR samples this thread) in 200 ms steps until {@code condition} holds,
   * committing a calibration after each (as Spanflight's run does): the joiner holds samples
   * until the clock is calibrated past them.
   */
  private static void burnUntil(BooleanSupplier condition, Supplier<String> what) {
    long deadline = System.nanoTime() + WITHIN.toNanos();
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime() - deadline).as(() -> "waiting for " + what.get()).isNegative();
      long end = System.nanoTime() + 200_000_000L;
      while (System.nanoTime() < end) {
        sink += Long.numberOfTrailingZeros(System.nanoTime());
      }
      CalibrationEvent.commitNow();
    }
  }
}
