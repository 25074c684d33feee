package io.spanflight.internal.capture;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.ContextStorage;
import io.opentelemetry.context.Scope;
import io.spanflight.internal.TestBridge;
import io.spanflight.internal.registry.ContextRegistry;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SpanflightContextStorageTest {

  private static final class RecordingBridge extends TestBridge {
    final List<Integer> switches = new ArrayList<>();

    @Override
    public void switchTo(int contextId) {
      switches.add(contextId);
    }
  }

  private final RecordingBridge bridge = new RecordingBridge();
  private final ContextRegistry registry = new ContextRegistry(bridge);
  private final SpanflightContextStorage storage =
      new SpanflightContextStorage(ContextStorage.defaultStorage());

  @AfterEach
  void stop() {
    SpanflightContextStorage.stop();
  }

  private static Context withSpan(int n) {
    SpanContext sc =
        SpanContext.create(
            String.format("%032x", n), String.format("%016x", n), TraceFlags.getSampled(), TraceState.getDefault());
    return Context.root().with(Span.wrap(sc));
  }

  @Test
  void recordsTheSpanOnAttachAndWhatIsRestoredOnClose() {
    SpanflightContextStorage.start(new SwitchRecorder(registry, bridge));
    Context outer = withSpan(1);
    Context inner = withSpan(2);
    try (Scope o = storage.attach(outer)) {
      try (Scope i = storage.attach(inner)) {
        assertThat(storage.current()).isSameAs(inner);
      }
    }
    int outerId = registry.idOf(Span.fromContext(outer).getSpanContext());
    int innerId = registry.idOf(Span.fromContext(inner).getSpanContext());
    assertThat(bridge.switches).containsExactly(outerId, innerId, outerId, 0);
  }

  @Test
  void reattachingTheCurrentContextIsNotASwitch() {
    SpanflightContextStorage.start(new SwitchRecorder(registry, bridge));
    Context ctx = withSpan(3);
    try (Scope o = storage.attach(ctx)) {
      try (Scope same = storage.attach(ctx)) {
        assertThat(same).isSameAs(Scope.noop());
      }
    }
    assertThat(bridge.switches).hasSize(2);
  }

  @Test
  void contextsWithoutAValidSpanRecordNoContext() {
    SpanflightContextStorage.start(new SwitchRecorder(registry, bridge));
    try (Scope s = storage.attach(Context.root().with(Span.getInvalid()))) {
      assertThat(bridge.switches).containsExactly(0);
    }
  }

  @Test
  void delegatesOnlyBeforeStartAndAfterStop() {
    try (Scope s = storage.attach(withSpan(4))) {
      assertThat(bridge.switches).isEmpty();
    }
  }

  @Test
  void selfCheckReportsAWrapperThatWasNeverInstalled() {
    // This test JVM never calls install(): the probe attach reaches the default storage only.
    assertThat(WrapperSelfCheck.wrapperActive()).isFalse();
  }
}
