package io.spanflight.internal.correlate;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.spanflight.internal.ScriptedBridge;
import io.spanflight.internal.filter.ContextFilterParser;
import io.spanflight.internal.filter.SampleFilters;
import io.spanflight.internal.format.CostKind;
import io.spanflight.internal.profile.SampleType;
import io.spanflight.internal.registry.ContextRegistry;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The join's rules without JFR: a thread's timeline, scripted, and samples given as plain values
 * (thread, time, a stack numbered by the test).
 */
class TimelineJoinTest {
  private static final SampleType CPU = SampleType.nanoseconds("cpu");
  private static final int IN_SCOPE = 5;
  private static final long THREAD = 1;

  private final ScriptedBridge bridge = new ScriptedBridge();
  private final Timelines timelines = new Timelines(bridge);
  private final ContextRegistry registry = new ContextRegistry(bridge);
  private final JoinedSamples sink = new JoinedSamples();

  private static SpanContext span(int n) {
    return SpanContext.create(
        String.format("%032x", n), String.format("%016x", n), TraceFlags.getSampled(), TraceState.getDefault());
  }

  private TimelineJoin join(SampleClock clock, SampleFilters filters) {
    return new TimelineJoin(clock, timelines, registry, filters, sink);
  }

  private static void sample(TimelineJoin join, long ticks, int stack) {
    join.join("cpu", CostKind.NONE, CPU, THREAD, false, ticks, stack, -1, ticks, 1);
  }

  @Test
  void aSampleInsideAScopeGetsThatScopesContext() {
    int scope = registry.idOf(span(1));
    bridge.then(s -> s.switched(THREAD, 100, scope));
    bridge.then(s -> s.switched(THREAD, 200, 0)); // the scope closed
    timelines.drain();
    TimelineJoin join = join(JoinedSamples.SAME_CLOCK, SampleFilters.NONE);

    sample(join, 150, 1);
    sample(join, 250, 2);

    assertThat(sink.joined).hasSize(2);
    assertThat(sink.joined.get(0).link.spanIdHex()).isEqualTo(span(1).getSpanId());
    assertThat(sink.joined.get(1).link).as("no scope: no context").isNull();
    assertThat(join.samples()).isEqualTo(2);
    assertThat(join.linked()).isEqualTo(1);
    assertThat(join.unknownTimeline()).isZero();
    assertThat(join.watermarkNanos()).isEqualTo(250);
  }

  @Test
  void aSampleWhereSwitchesWereLostIsCountedAndNeverLinkedToAGuess() {
    int before = registry.idOf(span(1));
    int after = registry.idOf(span(2));
    bridge.then(s -> s.switched(THREAD, 100, before));
    bridge.then(s -> s.lost(THREAD, 3)); // the ring overwrote three switches
    bridge.then(s -> s.switched(THREAD, 500, after));
    timelines.drain();
    TimelineJoin join = join(JoinedSamples.SAME_CLOCK, SampleFilters.NONE);

    sample(join, 300, 3);

    assertThat(sink.joined).hasSize(1);
    assertThat(sink.joined.get(0).link).as("neither the context before nor after").isNull();
    assertThat(join.unknownTimeline()).isEqualTo(1);
    assertThat(join.linked()).isZero();
  }

  @Test
  void aSampleTheClockCannotPlaceIsUnknownEvenInsideAScope() {
    int scope = registry.idOf(span(1));
    bridge.then(s -> s.switched(THREAD, 100, scope));
    timelines.drain();
    TimelineJoin join = join(JoinedSamples.clockTrustedFrom(1_000), SampleFilters.NONE);

    sample(join, 150, 4);

    assertThat(sink.joined.get(0).link).isNull();
    assertThat(join.unknownClock()).isEqualTo(1);
    assertThat(join.unknownTimeline()).isEqualTo(1);
    assertThat(join.linked()).isZero();
  }

  @Test
  void aFilterDropsUnknownSamplesAndCountsThem() {
    int scope = registry.idOf(span(1));
    bridge.then(s -> s.switched(THREAD, 100, scope));
    bridge.then(s -> s.lost(THREAD, 1));
    bridge.then(s -> s.switched(THREAD, 500, scope));
    timelines.drain();
    SampleFilters everyContext = new SampleFilters(ContextFilterParser.parse("hasContext || hasNoContext"), Map.of());
    TimelineJoin join = join(JoinedSamples.SAME_CLOCK, everyContext);

    sample(join, 300, 3); // the lost switch happened somewhere after 100
    sample(join, 600, IN_SCOPE);

    assertThat(sink.joined).extracting(j -> j.stack).containsExactly(IN_SCOPE);
    assertThat(join.filtered()).isEqualTo(1);
    assertThat(join.unknownTimeline()).as("counted as filtered, not as unknown").isZero();
    assertThat(join.linked()).isEqualTo(1);
  }
}
