package io.spanflight.internal.costs;

import io.opentelemetry.sdk.trace.data.SpanData;
import java.util.ArrayDeque;
import java.util.List;

/**
 * The finished spans waiting for the JFR stream, in arrival order (the SDK hands spans over in the
 * order they ended, so children before their parents), at most {@code maxSpans}. A span leaves
 * when the stream's watermark has passed its end, or at its deadline, or when everything is
 * flushed; it never leaves any other way. No threads and no clock of its own: the caller passes
 * the watermark and the time, which is what lets tests drive it.
 *
 * <p>Not API: internal to Spanflight.
 */
final class SpanHold {
  /**
   * The stream's watermark must pass a span's end by this much: the error of mapping the span's
   * wall-clock end onto nanoTime, and samples committed a little after they were taken (JDK 25's
   * CPU-time sampler commits from a queue).
   */
  static final long END_MARGIN_NANOS = 20_000_000;

  private final int maxSpans;
  private final long waitNanos;
  private final ArrayDeque<HeldSpan> held = new ArrayDeque<>();

  SpanHold(int maxSpans, long waitNanos) {
    this.maxSpans = maxSpans;
    this.waitNanos = waitNanos;
  }

  /**
   * Holds {@code span}, which started and ended at these times of the nanoTime clock; false (not
   * held) when {@code maxSpans} are held already.
   */
  synchronized boolean offer(SpanData span, long startNanos, long endNanos, long nowNanos) {
    if (held.size() >= maxSpans) {
      return false;
    }
    held.add(new HeldSpan(span, startNanos, endNanos + END_MARGIN_NANOS, nowNanos + waitNanos));
    return true;
  }

  /**
   * Moves to {@code out}, in order, the spans at the head whose end the watermark has passed or
   * whose deadline has passed. Stops at the first span that must wait.
   */
  synchronized void release(long watermarkNanos, long nowNanos, List<HeldSpan> out) {
    HeldSpan head;
    while ((head = held.peek()) != null && (head.endNanos <= watermarkNanos || head.deadlineNanos <= nowNanos)) {
      out.add(held.poll());
    }
  }

  /** Moves every held span to {@code out}, in order. */
  synchronized void releaseAll(List<HeldSpan> out) {
    out.addAll(held);
    held.clear();
  }

  /** Whether the stream has delivered events past {@code span}'s end. */
  static boolean joined(HeldSpan span, long watermarkNanos) {
    return span.endNanos <= watermarkNanos;
  }

  /** When the oldest held span arrived (its deadline minus the wait); Long.MAX_VALUE when none. */
  synchronized long oldestArrivalNanos() {
    HeldSpan head = held.peek();
    return head == null ? Long.MAX_VALUE : head.deadlineNanos - waitNanos;
  }

  /** The end (plus margin) of the oldest held span, or Long.MAX_VALUE when none is held. */
  synchronized long oldestEndNanos() {
    HeldSpan head = held.peek();
    return head == null ? Long.MAX_VALUE : head.endNanos;
  }

  synchronized int size() {
    return held.size();
  }
}
