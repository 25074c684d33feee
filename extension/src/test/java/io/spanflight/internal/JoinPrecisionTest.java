package io.spanflight.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.autoconfigure.spi.internal.DefaultConfigProperties;
import io.opentelemetry.sdk.resources.Resource;
import io.spanflight.internal.capture.SpanflightContextStorage;
import io.spanflight.internal.config.SpanflightConfig;
import io.spanflight.internal.registry.LocalRoots;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The join against a known schedule: one thread alternates between two spans every millisecond,
 * burning CPU in a method named after the active span. Everything is real except the agent: the
 * context-storage wrapper, the Java timeline, JFR, the join, the encoder and the file exporter.
 */
class JoinPrecisionTest {
  private static final SpanContext A = TwoSpans.A;
  private static final SpanContext B = TwoSpans.B;
  private static volatile long sink;

  @TempDir Path dir;

  @BeforeAll
  static void installBeforeTheStorageIsFirstUsed() {
    SpanflightContextStorage.install();
  }

  @Test
  void samplesLandOnTheSpanThatWasActiveWhenTheyWereTaken() throws Exception {
    SpanflightConfig config =
        SpanflightConfig.read(
            DefaultConfigProperties.createFromMap(
                Map.of(
                    "otel.spanflight.exporter", "file",
                    "otel.spanflight.file.directory", dir.toString(),
                    "otel.spanflight.export.interval", "1s",
                    "otel.spanflight.cpu.period", "10ms",
                    // the execution sampler on every JDK (JDK 25's default is the CPU-time sampler)
                    "otel.spanflight.cpu.enabled", "true",
                    "otel.spanflight.cputime.enabled", "false")));
    Spanflight spanflight = Spanflight.start(config, Resource.getDefault(), new LocalRoots());

    Context inA = Context.root().with(Span.wrap(A));
    Context inB = Context.root().with(Span.wrap(B));
    // switch every millisecond until enough samples were exported (about 6 s; longer on a busy machine)
    long deadline = System.nanoTime() + 90_000_000_000L;
    while (TwoSpans.total(countSamples()) < 300 && System.nanoTime() < deadline) {
      long slice = System.nanoTime() + 1_000_000_000L;
      while (System.nanoTime() < slice) {
        try (Scope ignored = inA.makeCurrent()) {
          sink += TwoSpans.burnInSpanA(1_000_000);
        }
        try (Scope ignored = inB.makeCurrent()) {
          sink += TwoSpans.burnInSpanB(1_000_000);
        }
      }
    }
    spanflight.shutdown();

    long[] counts = countSamples(); // correct, wrong, unlinked
    long total = TwoSpans.total(counts);
    System.out.printf(
        Locale.ROOT,
        "join precision: %d samples in burnInSpanA/B, %.2f %% on the active span, %d on the other, %d unlinked%n",
        total, 100.0 * counts[0] / total, counts[1], counts[2]);
    assertThat(total).as("samples inside the burn methods").isGreaterThan(200);
    assertThat(100.0 * counts[0] / total).isGreaterThanOrEqualTo(99.0);
  }

  private long[] countSamples() throws Exception {
    return TwoSpans.countSamples(dir, "samples", ".burnInSpan");
  }
}
