package io.spanflight.internal.registry;

import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SpanProcessor;

/**
 * Tells the registry when a span ends, so that its record leaves the key map at once and the
 * span's context can be collected with the span (young), instead of being held for the seconds the
 * record waits for its timelines. Without it (spans the SDK does not record) the key goes at the
 * registry's next prune.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class EndedSpans implements SpanProcessor {
  private volatile ContextRegistry registry;

  /** Starts passing ended spans to {@code registry} (null: stops). */
  public void connect(ContextRegistry registry) {
    this.registry = registry;
  }

  @Override
  public void onStart(Context parentContext, ReadWriteSpan span) {}

  @Override
  public boolean isStartRequired() {
    return false;
  }

  /**
   * On the application's thread: one map removal (for a local root, also reading its configured
   * attributes once), and nothing thrown.
   */
  @Override
  public void onEnd(ReadableSpan span) {
    ContextRegistry target = registry;
    if (target == null) {
      return;
    }
    try {
      target.spanEnded(span.getSpanContext());
    } catch (RuntimeException e) {
      // Never into the application: the key goes at the registry's next prune instead.
    }
  }

  @Override
  public boolean isEndRequired() {
    return true;
  }
}
