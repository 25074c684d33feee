package io.spanflight.internal.filter;

import io.spanflight.internal.registry.ContextRecord;
import java.util.Map;

/**
 * The context filters in force: one for all sources and, optionally, one per source that replaces
 * it. A filter's answer is cached per context (on its {@link ContextRecord}), so a hot span is
 * evaluated once (per instance: filters put in force at run time start afresh). Samples whose
 * context is unknown (lost timeline stretch) are dropped when a filter applies: nothing can be said about them. Used on the JFR consumer thread only.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class SampleFilters {
  private static final java.util.concurrent.atomic.AtomicInteger GENERATIONS = new java.util.concurrent.atomic.AtomicInteger();
  /** Keeps everything. */
  public static final SampleFilters NONE = new SampleFilters(null, Map.of());

  /** Tells this instance's answers cached on the records from those of filters in force before. */
  private final int generation = GENERATIONS.incrementAndGet();

  private final Slot all;
  private final Map<String, Slot> bySource;

  /** A filter and its cache slot on context records. */
  private static final class Slot {
    final ContextFilter filter;
    final int index;
    final boolean keepsNoContext;

    Slot(ContextFilter filter, int index) {
      this.filter = filter;
      this.index = index;
      this.keepsNoContext = filter.matches(null);
    }
  }

  /**
   * @param all the filter for every source, or null
   * @param bySource filters for single sources (by source name), replacing {@code all} there
   */
  public SampleFilters(ContextFilter all, Map<String, ContextFilter> bySource) {
    int[] next = {0};
    this.all = all == null ? null : new Slot(all, next[0]++);
    this.bySource = new java.util.HashMap<>();
    bySource.forEach((source, filter) -> this.bySource.put(source, new Slot(filter, next[0]++)));
  }

  /** Whether a sample of {@code source} taken in {@code context} (null: none) is kept. */
  public boolean keep(String source, ContextRecord context, boolean contextUnknown) {
    Slot slot = bySource.getOrDefault(source, all);
    if (slot == null) {
      return true;
    }
    if (contextUnknown) {
      return false;
    }
    if (context == null) {
      return slot.keepsNoContext;
    }
    int cached = context.cachedFilterResult(generation, slot.index);
    if (cached == 0) {
      cached = slot.filter.matches(context) ? 1 : 2;
      context.cacheFilterResult(generation, slot.index, cached);
    }
    return cached == 1;
  }
}
