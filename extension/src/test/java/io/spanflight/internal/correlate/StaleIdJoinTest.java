package io.spanflight.internal.correlate;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.spanflight.internal.ScriptedBridge;
import io.spanflight.internal.filter.SampleFilters;
import io.spanflight.internal.registry.ContextRegistry;
import org.junit.jupiter.api.Test;

/** A sample whose timeline gives an id that no longer resolves is unknown and counted. */
class StaleIdJoinTest {
  private final ScriptedBridge bridge = new ScriptedBridge();
  private final Timelines timelines = new Timelines(bridge);
  private final ContextRegistry registry = new ContextRegistry(bridge);
  private final TimelineJoin join =
      new TimelineJoin(JoinedSamples.SAME_CLOCK, timelines, registry, SampleFilters.NONE, new JoinedSamples());

  private static SpanContext span(int n) {
    return SpanContext.create(
        String.format("%032x", n), String.format("%016x", n), TraceFlags.getSampled(), TraceState.getDefault());
  }

  @Test
  void anIdWhoseSlotWasReusedLinksNothingAndIsCounted() {
    int a = registry.idOf(span(1));
    for (int i = 0; i < 4; i++) { // a's record removed, its slot freed
      registry.prune(index -> false);
    }
    int b = registry.idOf(span(2));

    assertThat(join.linkOf(a)).isNull();
    assertThat(join.unknownStaleId()).isEqualTo(1);
    assertThat(join.linkOf(b).spanIdHex()).isEqualTo(span(2).getSpanId());
    assertThat(join.unknownStaleId()).isEqualTo(1);
  }
}
