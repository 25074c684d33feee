package io.spanflight.internal.costs;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.util.List;

/**
 * Turns a released span into the span that is exported: takes its own costs out of the {@link
 * SpanCostTable} (whatever its status, so the entry is freed), adds its children's subtrees, puts
 * the attributes on, passes its subtree on to its local parent, and counts local roots (the
 * SERVER span of a request, usually) in the per-route metrics. Spans must come in the order they ended (children first). Used under the
 * exporter's lock.
 *
 * <p>Not API: internal to Spanflight.
 */
final class SpanCostAnnotator {
  /** On a span whose inferred children were not all sent (a cap was reached): how many were not. */
  static final AttributeKey<Long> INFERRED_DROPPED = AttributeKey.longKey("spanflight.inferred.dropped");

  private final SpanCostLink link;
  private final boolean[] enabled;
  private final CostAttributes attributes;
  private final SubtreeTotals subtrees;
  private final RouteCostMetrics metrics;
  private final long[] self = new long[SpanCostTable.WIDTH];
  private long spansSent;
  private long inferredSent;
  private long inferredDropped;

  SpanCostAnnotator(SpanCostLink link, boolean[] enabled, SubtreeTotals subtrees, RouteCostMetrics metrics) {
    this.link = link;
    this.enabled = enabled.clone();
    this.attributes = new CostAttributes(enabled);
    this.subtrees = subtrees;
    this.metrics = metrics;
  }

  /**
   * Adds to {@code out} the span to export, then its inferred children ({@link InferredChildren}).
   * {@code status} is {@link CostStatus#OK} when the stream has passed the span's end (it may
   * still turn out incomplete), else why its costs are unknown.
   */
  void annotate(HeldSpan held, String status, long nowNanos, List<SpanData> out) {
    SpanData span = held.span;
    long id = spanId(span.getSpanContext());
    SpanCostTable table = link.table();
    InferredEvents.Taken inferred = InferredEvents.Taken.NONE;
    if (table != null) {
      table.take(id, self);
      if (table.inferred() != null) {
        inferred = table.inferred().take(id);
      }
    }
    if (CostStatus.OK.equals(status) && (table == null || table.lastOverflowNanos() >= held.startNanos)) {
      status = CostStatus.INCOMPLETE;
    }
    long[] subtree = null;
    if (CostStatus.OK.equals(status)) {
      subtree = new long[SubtreeTotals.UNKNOWN];
      System.arraycopy(self, 0, subtree, 0, self.length);
      if (!subtrees.takeInto(id, held.startNanos, subtree)) {
        subtree = null;
      }
    } else {
      subtrees.takeInto(id, held.startNanos, new long[SubtreeTotals.UNKNOWN]); // frees the entry
    }
    SpanContext parent = span.getParentSpanContext();
    boolean localRoot = !parent.isValid() || parent.isRemote();
    if (!localRoot) {
      subtrees.addChild(spanId(parent), subtree, nowNanos);
    }
    metrics.sent(status);
    if (subtree != null && localRoot) { // one per request, however many SERVER spans it nests
      metrics.request(span.getAttributes(), subtree, enabled);
    }
    Attributes costs = CostStatus.OK.equals(status) ? attributes.of(self, subtree) : CostAttributes.status(status);
    if (inferred.dropped() > 0) {
      costs = costs.toBuilder().put(INFERRED_DROPPED, inferred.dropped()).build();
    }
    out.add(new CostedSpanData(span, costs));
    if (!inferred.events().isEmpty()) {
      out.addAll(InferredChildren.of(span, inferred.events(), span.getStartEpochNanos() - held.startNanos));
    }
    metrics.inferred(inferred.events().size(), inferred.dropped());
    spansSent++;
    inferredSent += inferred.events().size();
    inferredDropped += inferred.dropped();
  }

  /** What was sent so far, for the line logged at shutdown. */
  String summary() {
    return spansSent + " spans sent with their costs, " + inferredSent + " inferred spans with them"
        + (inferredDropped > 0 ? " (" + inferredDropped + " more not sent: over a cap)" : "");
  }

  /** The span id as the cost table keys it. */
  static long spanId(SpanContext context) {
    return Long.parseUnsignedLong(context.getSpanId(), 16);
  }
}
