package io.spanflight.internal.costs;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The costs of the exported children of spans not exported yet: when a span goes out, its subtree
 * (itself plus what its children's subtrees left here) is added to its local parent's entry, and
 * the parent takes its entry when it goes out. A child that ended after its parent was exported
 * (fire-and-forget work) is not in the parent's subtree.
 *
 * <p>At most {@code maxSpans} entries; beyond, the oldest entry is evicted and the time noted: a
 * parent alive then is told its subtree is incomplete. A child whose own costs or subtree were
 * unknown marks its parent's subtree unknown too. Used by the releasing thread, under the
 * exporter's lock.
 *
 * <p>Not API: internal to Spanflight.
 */
final class SubtreeTotals {
  /** One more long after the costs: 1 when some child's subtree was unknown. */
  static final int UNKNOWN = SpanCostTable.WIDTH;

  private final Map<Long, long[]> byParent;
  private long lastEvictionNanos = Long.MIN_VALUE;
  private long nowNanos;

  SubtreeTotals(int maxSpans) {
    this.byParent =
        new LinkedHashMap<>() {
          @Override
          protected boolean removeEldestEntry(Map.Entry<Long, long[]> eldest) {
            if (size() > maxSpans) {
              lastEvictionNanos = nowNanos;
              return true;
            }
            return false;
          }
        };
  }

  /** Adds a child's subtree ({@code null}: unknown) to its parent's entry. */
  void addChild(long parentId, long[] childSubtree, long nowNanos) {
    this.nowNanos = nowNanos;
    long[] totals = byParent.computeIfAbsent(parentId, id -> new long[UNKNOWN + 1]);
    if (childSubtree == null) {
      totals[UNKNOWN] = 1;
      return;
    }
    for (int i = 0; i < UNKNOWN; i++) {
      totals[i] += childSubtree[i];
    }
  }

  /**
   * Adds the children's totals of span {@code spanId}, which started at {@code startNanos}, to
   * {@code self} and forgets them; false when its subtree is unknown (a child unknown, or an entry
   * evicted while it was alive).
   */
  boolean takeInto(long spanId, long startNanos, long[] self) {
    long[] totals = byParent.remove(spanId);
    if (lastEvictionNanos >= startNanos) {
      return false;
    }
    if (totals == null) {
      return true;
    }
    for (int i = 0; i < UNKNOWN; i++) {
      self[i] += totals[i];
    }
    return totals[UNKNOWN] == 0;
  }

  int size() {
    return byParent.size();
  }
}
