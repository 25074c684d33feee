package io.spanflight.internal.jfr;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.spanflight.internal.ScriptedBridge;
import io.spanflight.internal.correlate.Timelines;
import io.spanflight.internal.filter.SampleFilters;
import io.spanflight.internal.profile.ProfileCollector;
import io.spanflight.internal.registry.ContextRegistry;
import org.junit.jupiter.api.Test;

/** A sample whose timeline gives an id that no longer resolves is unknown and counted. */
class StaleIdJoinTest {
  private final ScriptedBridge bridge = new ScriptedBridge();
  private final Timelines timelines = new Timelines(bridge);
  private final ContextRegistry registry = new ContextRegistry(bridge);
  private final SampleJoiner joiner =
      new SampleJoiner(new JfrClock(), timelines, registry, new ProfileCollector(), SampleFilters.NONE);

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

    assertThat(joiner.linkOf(a)).isNull();
    assertThat(joiner.unknownStaleId()).isEqualTo(1);
    assertThat(joiner.linkOf(b).spanIdHex()).isEqualTo(span(2).getSpanId());
    assertThat(joiner.unknownStaleId()).isEqualTo(1);
  }
}
