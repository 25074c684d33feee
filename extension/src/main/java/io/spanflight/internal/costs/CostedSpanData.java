package io.spanflight.internal.costs;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.trace.data.DelegatingSpanData;
import io.opentelemetry.sdk.trace.data.SpanData;

/**
 * A finished span with the {@code spanflight.cost.*} attributes added to its own.
 *
 * <p>Not API: internal to Spanflight.
 */
final class CostedSpanData extends DelegatingSpanData {
  private final Attributes attributes;
  private final int totalAttributeCount;

  CostedSpanData(SpanData span, Attributes costs) {
    super(span);
    this.attributes = span.getAttributes().toBuilder().putAll(costs).build();
    this.totalAttributeCount = span.getTotalAttributeCount() + costs.size();
  }

  @Override
  public Attributes getAttributes() {
    return attributes;
  }

  @Override
  public int getTotalAttributeCount() {
    return totalAttributeCount;
  }
}
