package io.spanflight.internal.capture;

import io.opentelemetry.context.Context;
import io.opentelemetry.context.ContextKey;
import io.opentelemetry.context.Scope;

/**
 * Proves at startup that the {@link SpanflightContextStorage} wrapper really sees context switches:
 * OpenTelemetry silently ignores a wrapper registered after the storage was first used, and another
 * library can replace the storage. Runs a probe attach on the calling thread.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class WrapperSelfCheck {
  private static final ContextKey<Boolean> PROBE = ContextKey.named("spanflight-self-check");

  private static int failures;

  private WrapperSelfCheck() {}

  /** True when the wrapper observed a probe attach made through {@link Context#makeCurrent()}. */
  public static synchronized boolean wrapperActive() {
    SpanflightContextStorage.probeSeen = false;
    SpanflightContextStorage.probingThread = Thread.currentThread();
    try (Scope ignored = Context.current().with(PROBE, Boolean.TRUE).makeCurrent()) {
      if (!SpanflightContextStorage.probeSeen) {
        failures++;
      }
      return SpanflightContextStorage.probeSeen;
    } finally {
      SpanflightContextStorage.probingThread = null;
    }
  }

  /** How many checks found the wrapper inactive (exported as {@code spanflight.capture.wrapper_inactive}). */
  public static synchronized int failures() {
    return failures;
  }
}
