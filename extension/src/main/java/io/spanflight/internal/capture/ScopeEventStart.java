package io.spanflight.internal.capture;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.context.Context;

/**
 * A begun {@link SpanScopeEvent} and the span it is for; ended when the scope closes. Only used
 * with {@code otel.spanflight.scope.events=true} (it allocates per scope).
 *
 * <p>Not API: internal to Spanflight.
 */
final class ScopeEventStart {
  private final SpanScopeEvent event;
  private final SpanContext span;

  private ScopeEventStart(SpanScopeEvent event, SpanContext span) {
    this.event = event;
    this.span = span;
  }

  /** Begins the event for the span of {@code context}; null when it has no valid span. */
  static ScopeEventStart of(Context context) {
    Span span = Span.fromContextOrNull(context);
    if (span == null || !span.getSpanContext().isValid()) {
      return null;
    }
    SpanScopeEvent event = new SpanScopeEvent();
    if (!event.isEnabled()) {
      return null;
    }
    event.begin();
    return new ScopeEventStart(event, span.getSpanContext());
  }

  void end() {
    try {
      event.endAndCommit(span);
    } catch (RuntimeException | LinkageError ignored) {
      // JFR refusing an event must never reach the application
    }
  }
}
