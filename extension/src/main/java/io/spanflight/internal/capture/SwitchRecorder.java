package io.spanflight.internal.capture;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.context.Context;
import io.spanflight.internal.bridge.ContextBridge;
import io.spanflight.internal.registry.ContextRegistry;

/**
 * Turns "this thread now runs in that {@link Context}" into one bridge call with the interned id
 * of the context's span (0 when there is no valid span).
 *
 * <p>Not API: internal to Spanflight.
 */
public final class SwitchRecorder {
  private final ContextRegistry registry;
  private final ContextBridge bridge;

  public SwitchRecorder(ContextRegistry registry, ContextBridge bridge) {
    this.registry = registry;
    this.bridge = bridge;
  }

  void record(Context context) {
    bridge.switchTo(idOf(context));
  }

  int idOf(Context context) {
    Span span = context == null ? null : Span.fromContextOrNull(context);
    if (span == null) {
      return ContextRegistry.NO_CONTEXT;
    }
    SpanContext spanContext = span.getSpanContext();
    return spanContext.isValid() ? registry.idOf(spanContext) : ContextRegistry.NO_CONTEXT;
  }
}
