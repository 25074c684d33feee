package io.spanflight.internal.registry;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.spanflight.internal.TestBridge;
import org.junit.jupiter.api.Test;

class LocalRootsTest {
  private static final AttributeKey<String> PROFILE_ID = AttributeKey.stringKey(LocalRoots.PROFILE_ID_ATTRIBUTE);

  private final LocalRoots localRoots = markingProfileIds(new LocalRoots());
  private final Tracer tracer =
      SdkTracerProvider.builder().addSpanProcessor(localRoots).build().get("test");

  private static LocalRoots markingProfileIds(LocalRoots roots) {
    roots.markProfileIds();
    return roots;
  }

  @Test
  void localRootsAreNotMarkedOutsideTheGrafanaMode() {
    LocalRoots unmarked = new LocalRoots();
    Tracer plain = SdkTracerProvider.builder().addSpanProcessor(unmarked).build().get("test");
    Span root = plain.spanBuilder("root").startSpan();
    assertThat(((ReadableSpan) root).getAttribute(PROFILE_ID)).isNull();
    assertThat(unmarked.localRoot(root.getSpanContext()).span()).isSameAs(root);
    root.end();
    assertThat(unmarked.localRoot(root.getSpanContext())).isNull();
  }

  @Test
  void childrenResolveToTheirLocalRootWhichCarriesTheProfileId() {
    Span root = tracer.spanBuilder("root").startSpan();
    Span child = tracer.spanBuilder("child").setParent(Context.root().with(root)).startSpan();
    Span grandchild = tracer.spanBuilder("grandchild").setParent(Context.root().with(child)).startSpan();

    assertThat(localRoots.localRootOf(grandchild.getSpanContext())).isEqualTo(root.getSpanContext());
    assertThat(((ReadableSpan) root).getAttribute(PROFILE_ID)).isEqualTo(root.getSpanContext().getSpanId());
    assertThat(((ReadableSpan) child).getAttribute(PROFILE_ID)).isNull();

    grandchild.end();
    child.end();
    root.end();
    assertThat(localRoots.size()).isZero();
  }

  @Test
  void aSpanWithARemoteParentIsALocalRoot() {
    SpanContext remote =
        SpanContext.createFromRemoteParent(
            "0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331", TraceFlags.getSampled(), TraceState.getDefault());
    Span server = tracer.spanBuilder("server").setParent(Context.root().with(Span.wrap(remote))).startSpan();
    assertThat(localRoots.localRootOf(server.getSpanContext())).isEqualTo(server.getSpanContext());
    assertThat(((ReadableSpan) server).getAttribute(PROFILE_ID)).isEqualTo(server.getSpanContext().getSpanId());
    server.end();
  }

  @Test
  void theRegistryLinksRecordsToTheLocalRootButKeepsTheirOwnSpanId() {
    ContextRegistry registry = ContextRegistry.builder(new TestBridge()).linkTarget(localRoots::localRootOf).build();
    Span root = tracer.spanBuilder("root").startSpan();
    Span child = tracer.spanBuilder("child").setParent(Context.root().with(root)).startSpan();

    ContextRecord record = registry.resolve(registry.idOf(child.getSpanContext()));
    ContextRecord rootRecord = registry.resolve(registry.idOf(root.getSpanContext()));

    assertThat(record.spanIdHex()).isEqualTo(child.getSpanContext().getSpanId());
    assertThat(record.link().spanIdBytes()).isEqualTo(root.getSpanContext().getSpanIdBytes());
    assertThat(record.link()).isEqualTo(rootRecord.link());
    child.end();
    root.end();
  }

  @Test
  void throughItsLiveSpanTheRegistryLinksToTheLocalRootToo() {
    ContextRegistry registry = ContextRegistry.builder(new TestBridge()).liveSpans(localRoots, true).build();
    Span root = tracer.spanBuilder("root").startSpan();
    Span child = tracer.spanBuilder("child").setParent(Context.root().with(root)).startSpan();

    ContextRecord record = registry.resolve(registry.idOf(child.getSpanContext()));

    assertThat(record.spanIdHex()).isEqualTo(child.getSpanContext().getSpanId());
    assertThat(record.traceIdHex()).isEqualTo(child.getSpanContext().getTraceId());
    assertThat(record.link().spanIdBytes()).isEqualTo(root.getSpanContext().getSpanIdBytes());
    child.end();
    root.end();
  }

  @Test
  void aLiveSpanKeepsItsIdWhileItRunsAndItsEndTakesTheRecordOutOfUse() {
    ContextRegistry registry = ContextRegistry.builder(new TestBridge()).liveSpans(localRoots, false).build();
    localRoots.connect(registry);
    Span span = tracer.spanBuilder("request").startSpan();
    int id = registry.idOf(span.getSpanContext());
    assertThat(registry.idOf(span.getSpanContext())).as("while it runs: the same record").isEqualTo(id);
    assertThat(registry.size()).isEqualTo(1);

    span.end();

    assertThat(registry.resolve(id)).as("timelines may still refer to it").isNotNull();
    int again = registry.idOf(span.getSpanContext());
    assertThat(again).as("a use after the end interns a new record").isNotEqualTo(id).isNotZero();
    assertThat(registry.resolve(again).link()).isEqualTo(registry.resolve(id).link());
  }

  @Test
  void afterAPruneALiveSpanIsInternedAnewAndItsOldIdStillResolves() {
    ContextRegistry registry = ContextRegistry.builder(new TestBridge()).liveSpans(localRoots, false).build();
    Span span = tracer.spanBuilder("request").startSpan();
    int id = registry.idOf(span.getSpanContext());

    registry.prune(slot -> true); // referenced by a timeline: kept, but no longer the span's current record

    int again = registry.idOf(span.getSpanContext());
    assertThat(again).isNotEqualTo(id).isNotZero();
    assertThat(registry.resolve(id).spanIdHex()).isEqualTo(span.getSpanContext().getSpanId());
    assertThat(registry.resolve(again).spanIdHex()).isEqualTo(span.getSpanContext().getSpanId());
    span.end();
  }

  @Test
  void aLiveSpansIdWhoseSlotWentToAnotherSpanIsNeverItsId() {
    ContextRegistry registry =
        ContextRegistry.builder(new TestBridge()).liveSpans(localRoots, false).maxIndex(1).build();
    Span first = tracer.spanBuilder("first").startSpan();
    int firstId = registry.idOf(first.getSpanContext());
    for (int i = 0; i < 4; i++) {
      registry.prune(slot -> false); // unused and unreferenced: retired, then its slot freed
    }
    Span second = tracer.spanBuilder("second").startSpan();
    int secondId = registry.idOf(second.getSpanContext());
    assertThat(secondId).as("the one slot, handed out again").isNotZero().isNotEqualTo(firstId);

    int firstAgain = registry.idOf(first.getSpanContext());

    assertThat(firstAgain).as("the first span's old id names a slot that is the second's now").isNotEqualTo(secondId);
    assertThat(firstAgain).as("no slot left for it: no context, never another span's").isZero();
    assertThat(registry.resolve(firstId)).isNull();
    assertThat(registry.resolve(secondId).spanIdHex()).isEqualTo(second.getSpanContext().getSpanId());
    first.end();
    second.end();
  }
}
