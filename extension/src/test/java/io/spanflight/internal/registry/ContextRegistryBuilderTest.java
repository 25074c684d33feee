package io.spanflight.internal.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.spanflight.internal.TestBridge;
import io.spanflight.internal.bridge.ContextBridge;
import org.junit.jupiter.api.Test;

class ContextRegistryBuilderTest {
  private final LocalRoots localRoots = new LocalRoots();
  private final Tracer tracer = SdkTracerProvider.builder().addSpanProcessor(localRoots).build().get("test");

  @Test
  void missingArgumentsAreNamed() {
    assertThatThrownBy(() -> ContextRegistry.builder(null)).hasMessage("bridge");
    assertThatThrownBy(() -> new ContextRegistry((ContextBridge) null)).hasMessage("bridge");
    ContextRegistryBuilder builder = ContextRegistry.builder(new TestBridge());
    assertThatThrownBy(() -> builder.linkTarget(null)).hasMessage("linkTarget");
    assertThatThrownBy(() -> builder.attributes(null)).hasMessage("attributes");
    assertThatThrownBy(() -> builder.liveSpans(null, true)).hasMessageStartingWith("liveSpans");
  }

  @Test
  void defaultsLinkToTheSpanItselfWithoutAttributesOrLiveSpans() {
    ContextRegistryBuilder builder = ContextRegistry.builder(new TestBridge()).liveSpans(null, false);
    assertThat(builder.linkTarget()).isSameAs(ContextRegistryBuilder.DEFAULT_LINK_TARGET);
    assertThat(builder.attributes).isSameAs(ContextAttributes.NONE);
    assertThat(builder.maxIndex).isEqualTo(ContextRegistryBuilder.DEFAULT_MAX_INDEX);
    assertThat(builder.liveSpans).isNull();

    ContextRegistry registry = builder.build();
    Span span = tracer.spanBuilder("span").startSpan();
    ContextRecord record = registry.resolve(registry.idOf(span.getSpanContext()));
    assertThat(record.link().spanIdBytes()).isEqualTo(span.getSpanContext().getSpanIdBytes());
    span.end();
  }

  @Test
  void linkingToTheLocalRootWinsOverALinkTarget() {
    ContextRegistry registry = ContextRegistry.builder(new TestBridge())
        .linkTarget(span -> SpanContext.getInvalid())
        .liveSpans(localRoots, true)
        .build();
    Span root = tracer.spanBuilder("root").startSpan();
    Span child = tracer.spanBuilder("child").setParent(Context.root().with(root)).startSpan();

    ContextRecord record = registry.resolve(registry.idOf(child.getSpanContext(), false)); // through the key map

    assertThat(record.link().spanIdBytes()).isEqualTo(root.getSpanContext().getSpanIdBytes());
    child.end();
    root.end();
  }
}
