package io.spanflight.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.autoconfigure.spi.internal.DefaultConfigProperties;
import io.opentelemetry.sdk.resources.Resource;
import io.spanflight.internal.capture.SpanflightContextStorage;
import io.spanflight.internal.config.SpanflightConfig;
import io.spanflight.internal.costs.SpanCostLink;
import io.spanflight.internal.costs.SpanCostTable;
import io.spanflight.internal.format.CostKind;
import io.spanflight.internal.registry.LocalRoots;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The join feeds the per-span cost table: CPU samples taken in a sampled span add up there with
 * the period as their value; those of an unsampled span do not (its span is never exported).
 * Real context-storage wrapper, Java timeline, JFR and join.
 */
class SpanCostJoinTest {
  private static final SpanContext SAMPLED = span("aaaaaaaaaaaaaaaa", TraceFlags.getSampled());
  private static final SpanContext UNSAMPLED = span("bbbbbbbbbbbbbbbb", TraceFlags.getDefault());
  private static final long PERIOD = 10_000_000;
  private static volatile long sink;

  @TempDir Path dir;

  @BeforeAll
  static void installBeforeTheStorageIsFirstUsed() {
    SpanflightContextStorage.install();
  }

  private static SpanContext span(String spanId, TraceFlags flags) {
    return SpanContext.create("0123456789abcdef0123456789abcdef", spanId, flags, TraceState.getDefault());
  }

  @Test
  void cpuSamplesOfASampledSpanAddUpInTheCostTable() throws Exception {
    SpanflightConfig config = SpanflightConfig.read(DefaultConfigProperties.createFromMap(Map.of(
        "otel.spanflight.exporter", "none",
        "otel.spanflight.span.costs", "true",
        "otel.spanflight.cpu.period", "10ms",
        // the execution sampler on every JDK (JDK 25's default is the CPU-time sampler)
        "otel.spanflight.cpu.enabled", "true",
        "otel.spanflight.cputime.enabled", "false")));
    SpanCostLink link = new SpanCostLink();
    Spanflight spanflight = Spanflight.start(config, null, Resource.getDefault(), new LocalRoots(), link);
    link.exporterWrapped(); // as the agent's exporter customizer does
    SpanCostTable table = spanflight.spanCosts();
    long[] sampled = new long[2 * CostKind.COUNT];
    long[] unsampled = new long[2 * CostKind.COUNT];
    try {
      long deadline = System.nanoTime() + 60_000_000_000L;
      while (sampled[2 * CostKind.CPU] < 20 && System.nanoTime() < deadline) {
        try (Scope ignored = Context.root().with(Span.wrap(SAMPLED)).makeCurrent()) {
          sink += burn(200_000_000);
        }
        try (Scope ignored = Context.root().with(Span.wrap(UNSAMPLED)).makeCurrent()) {
          sink += burn(200_000_000);
        }
        long end = System.nanoTime();
        while (spanflight.joiner().watermarkNanos() < end && System.nanoTime() < deadline) {
          spanflight.joiner().awaitCalibrationCommittedNow(2000); // the stream delivers up to now
        }
        add(table, SAMPLED, sampled);
        add(table, UNSAMPLED, unsampled);
      }
    } finally {
      spanflight.shutdown();
    }
    assertThat(sampled[2 * CostKind.CPU]).as("CPU samples of the sampled span").isGreaterThanOrEqualTo(20);
    assertThat(sampled[2 * CostKind.CPU + 1]).as("their value: the period each").isEqualTo(sampled[2 * CostKind.CPU] * PERIOD);
    assertThat(unsampled).as("nothing for an unsampled span").containsOnly(0L);
    assertThat(table.size()).isZero();
  }

  private static void add(SpanCostTable table, SpanContext span, long[] into) {
    long[] taken = new long[into.length];
    table.take(Long.parseUnsignedLong(span.getSpanId(), 16), taken);
    for (int i = 0; i < into.length; i++) {
      into[i] += taken[i];
    }
  }

  private static long burn(long nanos) {
    long deadline = System.nanoTime() + nanos;
    long acc = 17;
    while (System.nanoTime() < deadline) {
      for (int i = 0; i < 200; i++) {
        acc = acc * 31 + i;
      }
    }
    return acc;
  }
}
