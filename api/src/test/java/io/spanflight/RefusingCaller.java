package io.spanflight;

import java.util.function.Supplier;

/** Adds an over-long value; loaded by the test with assertions disabled, as in production. */
public final class RefusingCaller implements Supplier<SpanflightContext> {
  @Override
  public SpanflightContext get() {
    return SpanflightContext.empty().with("ok", "1").with("long", "v".repeat(300));
  }
}
