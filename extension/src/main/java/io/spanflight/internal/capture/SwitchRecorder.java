package io.spanflight.internal.capture;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.spanflight.internal.bridge.ContextBridge;
import io.spanflight.internal.registry.ContextRegistry;
import io.spanflight.internal.registry.UserEntries;

/**
 * Turns "this thread now runs in that {@link Context}" into one bridge call with the interned id
 * of the context's span and user-defined entries (0 when there is neither).
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
    if (context == null) {
      return ContextRegistry.NO_CONTEXT;
    }
    Span span = Span.fromContextOrNull(context);
    SpanContext spanContext = span == null ? SpanContext.getInvalid() : span.getSpanContext();
    UserEntries user = UserContext.of(context);
    if (user != null) {
      return registry.idOf(spanContext, user);
    }
    // Only the SDK's own spans are ReadableSpans: a propagated or unsampled span has no live entry.
    return spanContext.isValid() ? registry.idOf(spanContext, span instanceof ReadableSpan) : ContextRegistry.NO_CONTEXT;
  }
}
