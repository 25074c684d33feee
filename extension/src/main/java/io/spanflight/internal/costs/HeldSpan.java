package io.spanflight.internal.costs;

import io.opentelemetry.sdk.trace.data.SpanData;

/**
 * A finished span waiting for the JFR stream to deliver the events up to its end.
 *
 * <p>Not API: internal to Spanflight.
 */
final class HeldSpan {
  final SpanData span;
  /** The span's start and end on the nanoTime clock (the stream's watermark is on it too). */
  final long startNanos;
  final long endNanos;
  /** When it goes out whatever the stream did (nanoTime clock). */
  final long deadlineNanos;

  HeldSpan(SpanData span, long startNanos, long endNanos, long deadlineNanos) {
    this.span = span;
    this.startNanos = startNanos;
    this.endNanos = endNanos;
    this.deadlineNanos = deadlineNanos;
  }
}
