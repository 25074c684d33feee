package io.spanflight.internal.registry;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.spanflight.internal.bridge.JavaContextBridge;
import org.junit.jupiter.api.Test;

class EndedSpansTest {
  private final ContextRegistry registry = new ContextRegistry(new JavaContextBridge(16));
  private final EndedSpans endedSpans = new EndedSpans();
  private final Tracer tracer =
      SdkTracerProvider.builder().addSpanProcessor(endedSpans).build().get("test");

  @Test
  void anEndedSpansRecordLeavesTheKeyMapAtOnceAndStaysResolvable() {
    endedSpans.connect(registry);
    Span span = tracer.spanBuilder("request").startSpan();
    int id = registry.idOf(span.getSpanContext());
    assertThat(registry.idOf(span.getSpanContext())).as("while it runs: the same record").isEqualTo(id);

    span.end();

    assertThat(registry.resolve(id)).as("timelines may still refer to it").isNotNull();
    int again = registry.idOf(span.getSpanContext());
    assertThat(again).as("a use after the end interns a new record").isNotEqualTo(id);
    assertThat(registry.resolve(again).link()).isEqualTo(registry.resolve(id).link());
  }

  @Test
  void beforeItIsConnectedEndingASpanChangesNothing() {
    Span span = tracer.spanBuilder("request").startSpan();
    int id = registry.idOf(span.getSpanContext());
    span.end();
    assertThat(registry.idOf(span.getSpanContext())).isEqualTo(id);
  }
}
