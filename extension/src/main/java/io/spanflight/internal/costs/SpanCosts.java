package io.spanflight.internal.costs;

import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.spanflight.internal.config.SourceSettings;
import io.spanflight.internal.config.SpanflightConfig;
import io.spanflight.internal.format.CostKind;
import io.spanflight.internal.profile.EpochClock;
import io.opentelemetry.api.metrics.Meter;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.concurrent.TimeUnit;

/**
 * Puts per-span costs together ({@code otel.spanflight.span.costs}): the wrapped span exporter
 * and its ticking thread, from the settings.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class SpanCosts {
  /** Table entries no event was added to for this long are dropped (spans never exported). */
  public static final long EXPIRY_NANOS = TimeUnit.MINUTES.toNanos(5);

  private SpanCosts() {}

  /** The exporter that adds costs to what {@code delegate} sends, ticking on its own thread. */
  public static SpanExporter wrap(SpanExporter delegate, SpanCostLink link, SpanflightConfig config) {
    boolean[] enabled = enabledKinds(config.sources(), config.cpuTimeUsable());
    CostSpanExporter exporter = create(delegate, link, config.spanCostsMaxSpans(), config.spanCostsMaxRoutes(),
        TimeUnit.MILLISECONDS.toNanos(config.spanCostsWait().toMillis()), enabled,
        RouteCostMetrics.globalMeter(), config.contextAttributes(), System::nanoTime, EpochClock::nowNanos);
    new CostTicker().start(exporter);
    link.exporterWrapped();
    return exporter;
  }

  /**
   * @param meter the meter of the route metrics, or null while there is none yet
   * @param contextAttributes the configured context attribute keys, dimensions of the route metrics
   * @param nanoClock the clock of the stream's watermark
   * @param epochClock wall-clock nanoseconds, the clock of span timestamps
   */
  static CostSpanExporter create(
      SpanExporter delegate,
      SpanCostLink link,
      int maxSpans,
      int maxRoutes,
      long waitNanos,
      boolean[] enabled,
      Supplier<Meter> meter,
      List<String> contextAttributes,
      LongSupplier nanoClock,
      LongSupplier epochClock) {
    RouteCostMetrics metrics = new RouteCostMetrics(meter, maxRoutes, CostAttributes.cpuKind(enabled), contextAttributes);
    SpanCostAnnotator annotator = new SpanCostAnnotator(link, enabled, new SubtreeTotals(maxSpans), metrics);
    return new CostSpanExporter(
        delegate, link, new SpanHold(maxSpans, waitNanos), annotator, nanoClock, epochClock);
  }

  /**
   * Per {@link CostKind}, whether its events will arrive: the source is on and, for {@code
   * cputime}, the sampler can run here ({@link SpanflightConfig#cpuTimeUsable()}).
   */
  static boolean[] enabledKinds(List<SourceSettings> sources, boolean cpuTimeUsable) {
    boolean[] enabled = new boolean[CostKind.COUNT];
    for (SourceSettings source : sources) {
      int kind = SourceCostKind.of(source.name());
      if (kind != CostKind.NONE && source.enabled()) {
        enabled[kind] = kind != CostKind.CPU_TIME || cpuTimeUsable;
      }
    }
    return enabled;
  }
}
