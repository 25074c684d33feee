package io.spanflight.internal.capture;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import io.spanflight.internal.TestBridge;
import io.spanflight.internal.registry.ContextRegistry;
import io.spanflight.internal.registry.LocalRoots;
import org.junit.jupiter.api.Test;

/** A switch to a span the SDK records goes through its live entry; any other span, through the key map. */
class SwitchRecorderTest {
  private final LocalRoots liveSpans = new LocalRoots();
  private final TestBridge bridge = new TestBridge();
  private final ContextRegistry registry = ContextRegistry.builder(bridge).liveSpans(liveSpans, false).build();
  private final SwitchRecorder recorder = new SwitchRecorder(registry, bridge);

  @Test
  void aRecordedSpansEndTakesItsRecordOutOfUseAtOnce() {
    liveSpans.connect(registry);
    Tracer tracer = SdkTracerProvider.builder().addSpanProcessor(liveSpans).build().get("test");
    Span span = tracer.spanBuilder("request").startSpan();
    Context context = Context.root().with(span);
    int id = recorder.idOf(context);
    assertThat(recorder.idOf(context)).isEqualTo(id).isNotZero();

    span.end(); // the live entry goes, and tells the registry

    assertThat(recorder.idOf(context)).as("interned anew, through the key map").isNotEqualTo(id).isNotZero();
  }

  @Test
  void anUnsampledSpanGoesThroughTheKeyMapAndKeepsItsIdAfterItsEnd() {
    liveSpans.connect(registry);
    Tracer tracer = SdkTracerProvider.builder().setSampler(Sampler.alwaysOff()).addSpanProcessor(liveSpans)
        .build().get("test");
    Span span = tracer.spanBuilder("request").startSpan();
    Context context = Context.root().with(span);
    int id = recorder.idOf(context);

    span.end(); // no span processor sees it: the key map keeps its record until the next prune

    assertThat(span.getSpanContext().isValid()).isTrue();
    assertThat(recorder.idOf(context)).isEqualTo(id).isNotZero();
    assertThat(liveSpans.size()).isZero();
  }
}
