package io.spanflight.internal.capture;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.spanflight.internal.TestBridge;
import io.spanflight.internal.registry.ContextRegistry;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The mount hook shows the current context on the record only; the unmount hook shows none. */
class CarrierRecordWriterTest {

  private static final class RecordingBridge extends TestBridge {
    final List<String> calls = new ArrayList<>();

    @Override
    public void switchTo(int contextId) {
      calls.add("switch:" + contextId);
    }

    @Override
    public void showOnRecord(int contextId) {
      calls.add("show:" + contextId);
    }
  }

  private final RecordingBridge bridge = new RecordingBridge();
  private final ContextRegistry registry = new ContextRegistry(bridge);
  private final CarrierRecordWriter writer =
      new CarrierRecordWriter(new SwitchRecorder(registry, bridge), bridge);

  @Test
  void mountShowsTheCurrentSpanAndUnmountShowsNone() {
    writer.start();
    SpanContext span = SpanContext.create(
        "0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331", TraceFlags.getSampled(), TraceState.getDefault());
    try (Scope ignored = Context.root().with(Span.wrap(span)).makeCurrent()) {
      writer.onMount().run();
    }
    writer.onUnmount().run();

    assertThat(bridge.calls).containsExactly("show:" + registry.idOf(span), "show:0");
  }

  @Test
  void whileStoppedMountsInternNothingAndWriteNoRecord() {
    SpanContext span = SpanContext.create(
        "0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331", TraceFlags.getSampled(), TraceState.getDefault());
    writer.start();
    writer.stop();
    try (Scope ignored = Context.root().with(Span.wrap(span)).makeCurrent()) {
      writer.onMount().run();
    }
    writer.onUnmount().run();

    assertThat(bridge.calls).isEmpty();
    assertThat(registry.size()).as("nothing interned").isZero();
  }

  @Test
  void mountWithoutASpanShowsNone() {
    writer.start();
    writer.onMount().run();
    assertThat(bridge.calls).containsExactly("show:0");
  }
}
