package io.spanflight.smoke;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What every trace with inferred spans must show, whichever backend returned it: each inferred
 * span's parent is in the same trace, and it lies inside its parent's start and end within {@link
 * #PRECISION_NANOS}; and what one request of {@code WaitsApp} must show: the wait it measured as a
 * child span of the right kind, on its thread, about as long as measured.
 */
final class InferredSpanChecks {
  /**
   * How far an inferred span may seem to stick out of its parent: JFR's clock is mapped onto
   * System.nanoTime() within the join's tolerance (0.1 ms), and a traced call timed by the JDK 17
   * and 21 hooks is on nanoTime itself.
   */
  static final long PRECISION_NANOS = 200_000;
  /** How far a child's duration may differ from what the app measured around the blocking call. */
  static final long DURATION_SLACK_NANOS = 15_000_000;

  private InferredSpanChecks() {}

  /** Parents exist in the trace and hold their inferred children in time. */
  static void parentsHoldTheirChildren(List<SpanView> trace) {
    Map<String, SpanView> byId = trace.stream().collect(Collectors.toMap(SpanView::spanId, Function.identity(), (a, b) -> a));
    for (SpanView span : trace) {
      if (!span.inferred()) {
        continue;
      }
      SpanView parent = byId.get(span.parentSpanId());
      assertThat(parent).as("the parent of %s in its trace %s", span, trace).isNotNull();
      assertThat(span.startNanos()).as("%s starts inside %s", span, parent)
          .isGreaterThanOrEqualTo(parent.startNanos() - PRECISION_NANOS);
      assertThat(span.endNanos()).as("%s ends inside %s", span, parent)
          .isLessThanOrEqualTo(parent.endNanos() + PRECISION_NANOS);
      assertThat(span.kind()).isEqualTo("INTERNAL");
    }
  }

  /**
   * The trace of one request holds a span named {@code name} with {@code spanflight.inferred} =
   * {@code type}, on {@code threadId}, lasting {@code waitedNanos} within the slack; returns it.
   */
  static SpanView waitOf(List<SpanView> trace, String name, String type, long threadId, long waitedNanos) {
    List<SpanView> matching = trace.stream().filter(s -> name.equals(s.name()) && type.equals(s.string("spanflight.inferred")))
        .collect(Collectors.toList());
    assertThat(matching).as("a '%s' span in %s", name, trace).isNotEmpty();
    SpanView longest = matching.stream().max((a, b) -> Long.compare(a.durationNanos(), b.durationNanos())).orElseThrow();
    assertThat(longest.number("thread.id")).as("the thread of %s", longest).isEqualTo(threadId);
    assertThat(longest.durationNanos()).as("the duration of %s against %d ns measured", longest, waitedNanos)
        .isBetween(waitedNanos - DURATION_SLACK_NANOS, waitedNanos + DURATION_SLACK_NANOS);
    assertThat(longest.string("code.stacktrace")).as("frames of %s", longest).startsWith("at ");
    return longest;
  }
}
