package io.spanflight.internal.costs;

import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Turns a span's inferred events into its child spans, nested as they ran: an event that ran
 * within a traced call on the same thread (a wait inside it, or a traced call it made) becomes a
 * child of that call's span, the others children of the span itself.
 *
 * <p>Not API: internal to Spanflight.
 */
final class InferredChildren {
  private InferredChildren() {}

  /**
   * The child spans of {@code parent} for {@code events}.
   *
   * @param toEpoch added to an event's nanoTime to place it on the parent's clock
   */
  static List<SpanData> of(SpanData parent, List<InferredEvent> events, long toEpoch) {
    List<InferredEvent> ordered = new ArrayList<>(events);
    // by start; of two that start together the longer first, so that it encloses the other
    ordered.sort(Comparator.comparingLong(InferredEvent::startNanos)
        .thenComparing(Comparator.comparingLong(InferredEvent::durationNanos).reversed()));
    List<SpanData> spans = new ArrayList<>(ordered.size());
    List<InferredEvent> calls = new ArrayList<>(); // traced calls so far, with their spans below
    List<SpanData> callSpans = new ArrayList<>();
    for (InferredEvent event : ordered) {
      SpanContext directParent = parent.getSpanContext();
      for (int i = calls.size() - 1; i >= 0; i--) { // the innermost call that encloses it
        if (encloses(calls.get(i), event)) {
          directParent = callSpans.get(i).getSpanContext();
          break;
        }
      }
      InferredSpanData span = new InferredSpanData(parent, directParent, event, toEpoch);
      spans.add(span);
      if (event.function() != null) {
        calls.add(event);
        callSpans.add(span);
      }
    }
    return spans;
  }

  /**
   * Whether {@code event} ran inside {@code call}: on the same thread, its middle within the call.
   * One thread does one thing at a time, so an event that overlaps a call on its thread is inside
   * it; the middle rather than both ends, because a call the JDK 17 and 21 hooks timed and a wait
   * JFR timed are placed on one clock only within the join's tolerance (0.1 ms).
   */
  private static boolean encloses(InferredEvent call, InferredEvent event) {
    long middle = event.startNanos() + event.durationNanos() / 2;
    return call.threadId() == event.threadId()
        && call.startNanos() <= middle
        && middle <= call.startNanos() + call.durationNanos();
  }
}
