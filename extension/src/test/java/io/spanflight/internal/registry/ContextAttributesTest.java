package io.spanflight.internal.registry;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.spanflight.internal.TestBridge;
import io.spanflight.internal.bridge.ContextBridge;
import java.lang.ref.WeakReference;
import java.util.List;
import org.junit.jupiter.api.Test;

class ContextAttributesTest {
  private final LocalRoots localRoots = new LocalRoots();
  private final Tracer tracer = SdkTracerProvider.builder().addSpanProcessor(localRoots).build().get("test");
  private final AttributeKeyMap keyMap = new AttributeKeyMap();
  private final ContextAttributes attributes =
      new ContextAttributes(List.of("http.route", "http.request.method", "tenant.id"), localRoots::localRoot, keyMap);
  private final TestBridge bridge = new TestBridge();
  /** As Spanflight wires it: live spans interned through {@link LocalRoots}. */
  private final ContextRegistry registry =
      ContextRegistry.builder(bridge).attributes(attributes).liveSpans(localRoots, false).build();

  @Test
  void childContextsCarryTheLocalRootsAttributesIncludingValuesSetLater() {
    Span root = tracer.spanBuilder("GET").setAttribute("http.request.method", "GET").startSpan();
    Span child = tracer.spanBuilder("work").setParent(Context.root().with(root)).startSpan();
    ContextRecord record = registry.resolve(registry.idOf(child.getSpanContext()));
    assertThat(record.attributes()).containsExactly(java.util.Map.entry("http.request.method", "GET"));

    // the route is known only once the framework has matched it, after the scope was entered
    root.setAttribute("http.route", "/orders/{id}");
    root.setAttribute("tenant.id", 42L);
    assertThat(record.attributePairs())
        .containsExactly("http.route", "/orders/{id}", "http.request.method", "GET", "tenant.id", "42");
    child.end();
    root.end();
    assertThat(record.attributes()).as("still readable after the spans ended").hasSize(3);
  }

  @Test
  void aRecordLetsItsEndedSourceSpanGoAndKeepsItsAttributes() {
    ContextRecord[] record = new ContextRecord[1];
    WeakReference<Span> root = startAndEndRoot(record);
    registry.prune(slot -> true); // still referenced by a timeline: the record stays

    awaitCollected(root);
    assertThat(root.get()).as("the ended span, held only by the record").isNull();
    assertThat(record[0].attributePairs()).containsExactly("http.route", "/r", "http.request.method", "GET");
  }

  @Test
  void aRootSpansRecordLetsItGoWhenItEnds() {
    Tracer ending = endingTracer();
    ContextRecord[] record = new ContextRecord[1];
    WeakReference<Span> root = startAndEndRoot(ending, record); // no prune: a busy service's spans end between two

    awaitCollected(root);
    assertThat(root.get()).as("the ended span, held only by the record until the next prune").isNull();
    assertThat(record[0].attributePairs()).containsExactly("http.route", "/r", "http.request.method", "GET");
  }

  @Test
  void aChildSpansRecordLetsTheLocalRootGoWhenTheRootEnds() {
    Tracer ending = endingTracer();
    ContextRecord[] child = new ContextRecord[1];
    List<WeakReference<Object>> held = startAndEndRootWithChild(ending, child); // no prune between
    WeakReference<Object> root = held.get(0);
    WeakReference<Object> localRoot = held.get(1);

    awaitCollected(root);
    assertThat(root.get()).as("the ended root, held by no record once it has ended").isNull();
    assertThat(child[0].attributePairs()).containsExactly("http.route", "/r", "http.request.method", "GET");
    registry.prune(slot -> true); // still referenced by a timeline: the records stay
    awaitCollected(localRoot);
    assertThat(localRoot.get()).as("the local root, let go by the child's record at the prune").isNull();
    assertThat(child[0].attributePairs()).containsExactly("http.route", "/r", "http.request.method", "GET");
  }

  @Test
  void aLocalRootNeverCurrentItselfLetsItsSpanGoWhenItEnds() {
    Tracer ending = endingTracer();
    ContextRecord[] child = new ContextRecord[1];
    WeakReference<Object> root = startChildAndEndRoot(ending, child); // no prune between

    awaitCollected(root);
    assertThat(root.get()).as("the ended root, held by no record once it has ended").isNull();
    assertThat(child[0].attributePairs()).containsExactly("http.route", "/r", "http.request.method", "GET");
  }

  /** A root span that is never current itself, a child of it that is, and the root's end. */
  private WeakReference<Object> startChildAndEndRoot(Tracer tracer, ContextRecord[] childRecord) {
    Span root = tracer.spanBuilder("GET").setAttribute("http.request.method", "GET").startSpan();
    root.setAttribute("http.route", "/r");
    Span child = tracer.spanBuilder("SELECT").setParent(Context.root().with(root)).startSpan();
    childRecord[0] = registry.resolve(registry.idOf(child.getSpanContext()));
    root.end();
    return new WeakReference<>(root);
  }

  /** A tracer whose span ends reach the registry, as in a run. */
  private Tracer endingTracer() {
    localRoots.connect(registry);
    return tracer;
  }

  private static void awaitCollected(WeakReference<?> reference) {
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(20);
    while (reference.get() != null && System.nanoTime() < deadline) {
      System.gc();
    }
  }

  /** Weak references to the root span and its {@link LocalRoot}. */
  private List<WeakReference<Object>> startAndEndRootWithChild(Tracer tracer, ContextRecord[] childRecord) {
    Span root = tracer.spanBuilder("GET").setAttribute("http.request.method", "GET").startSpan();
    registry.idOf(root.getSpanContext()); // the root was current too, as in a server
    Span child = tracer.spanBuilder("SELECT").setParent(Context.root().with(root)).startSpan();
    childRecord[0] = registry.resolve(registry.idOf(child.getSpanContext()));
    LocalRoot localRoot = localRoots.localRoot(child.getSpanContext());
    root.setAttribute("http.route", "/r");
    child.end();
    root.end();
    return List.of(new WeakReference<>(root), new WeakReference<>(localRoot));
  }

  private WeakReference<Span> startAndEndRoot(ContextRecord[] record) {
    return startAndEndRoot(tracer, record);
  }

  private WeakReference<Span> startAndEndRoot(Tracer tracer, ContextRecord[] record) {
    Span root = tracer.spanBuilder("GET").setAttribute("http.request.method", "GET").startSpan();
    record[0] = registry.resolve(registry.idOf(root.getSpanContext()));
    root.setAttribute("http.route", "/r");
    root.end();
    return new WeakReference<>(root);
  }

  @Test
  void aSlotFreedBeyondTheIdleBoundKeepsNoLocalRoot() {
    for (int i = 1; i <= IdRecycler.MAX_IDLE_RECORDS + 100; i++) {
      registry.idOf(SpanContext.create(
          String.format("%032x", i), String.format("%016x", i), TraceFlags.getSampled(), TraceState.getDefault()));
    }
    Span root = tracer.spanBuilder("GET").setAttribute("http.request.method", "GET").startSpan();
    registry.idOf(root.getSpanContext()); // the last slot: beyond the bound once the peak is forgotten
    WeakReference<LocalRoot> localRoot = new WeakReference<>(localRoots.localRoot(root.getSpanContext()));
    for (int i = 0; i < 4 + 4 * IdRecycler.PEAK_DECAY; i++) {
      registry.prune(slot -> false); // retired while the root still runs, then freed, then its record dropped
    }
    root.end(); // LocalRoots lets it go; only the slot could still hold it
    root = null;

    awaitCollected(localRoot);
    assertThat(localRoot.get()).as("the local root of a span whose slot is idle").isNull();
  }

  @Test
  void theRecordGetsTheValuesKnownAtFirstUseKeyedByTheKeyMap() {
    Span root =
        tracer.spanBuilder("GET").setAttribute("http.route", "/a").setAttribute("http.request.method", "GET").startSpan();
    int id = registry.idOf(root.getSpanContext());
    assertThat(keyMap.keys()).containsExactly("http.route", "http.request.method", "tenant.id");
    byte[] expected = {0, 2, '/', 'a', 1, 3, 'G', 'E', 'T'};
    assertThat(bridge.attributesOf(id)).isEqualTo(expected);
    root.end();
  }

  @Test
  void theSpansOfARootShareItsPackingUntilItsValuesChange() {
    Span root = tracer.spanBuilder("GET").setAttribute("http.request.method", "GET").startSpan();
    int rootId = registry.idOf(root.getSpanContext()); // current before the framework matched the route
    root.setAttribute("http.route", "/o/{id}");
    int firstId = registry.idOf(childOf(root).getSpanContext());
    int secondId = registry.idOf(childOf(root).getSpanContext());
    LocalRoot localRoot = localRoots.localRoot(root.getSpanContext());

    assertThat(bridge.attributesOf(rootId)).isEqualTo(new byte[] {1, 3, 'G', 'E', 'T'});
    byte[] routed = {0, 7, '/', 'o', '/', '{', 'i', 'd', '}', 1, 3, 'G', 'E', 'T'};
    assertThat(bridge.attributesOf(firstId)).isEqualTo(routed);
    assertThat(bridge.attributesOf(secondId)).isEqualTo(routed);
    assertThat(bridge.attributeSetOf(secondId)).isEqualTo(bridge.attributeSetOf(firstId)).isNotNegative();
    assertThat(localRoot.packing(attributes)).as("kept while the values stay").isSameAs(localRoot.packing(attributes));

    root.setAttribute("http.route", "/c");
    int changedId = registry.idOf(childOf(root).getSpanContext());
    root.setAttribute("tenant.id", 7L);
    int longId = registry.idOf(childOf(root).getSpanContext());
    Span late = childOf(root);
    root.end();
    int endedId = registry.idOf(late.getSpanContext()); // first current after its root ended

    byte[] changed = {0, 2, '/', 'c', 1, 3, 'G', 'E', 'T'};
    assertThat(bridge.attributesOf(changedId)).as("a changed value: packed anew").isEqualTo(changed);
    byte[] withTenant = {0, 2, '/', 'c', 1, 3, 'G', 'E', 'T', 2, 1, '7'};
    assertThat(bridge.attributesOf(longId)).as("a value added, a long one").isEqualTo(withTenant);
    assertThat(bridge.attributesOf(endedId)).as("the ended root's kept values").isEqualTo(withTenant);
  }

  private Span childOf(Span root) {
    return tracer.spanBuilder("work").setParent(Context.root().with(root)).startSpan();
  }

  @Test
  void aValueTooLongForTheRecordIsLeftOutOfItAndCounted() {
    String longRoute = "/" + "x".repeat(300);
    Span root = tracer.spanBuilder("GET").setAttribute("http.route", longRoute).startSpan();
    int id = registry.idOf(root.getSpanContext());
    assertThat(bridge.attributesOf(id)).isEmpty();
    assertThat(attributes.droppedValues()).isEqualTo(1);
    assertThat(registry.resolve(id).attributes()).containsEntry("http.route", longRoute);
    root.end();
  }

  @Test
  void contextsWithEqualValuesShareOnePackedRecordAndEachCountsWhatItLeftOut() {
    String longRoute = "/" + "y".repeat(300);
    Span first = tracer.spanBuilder("GET").setAttribute("http.route", "/c").setAttribute("tenant.id", longRoute).startSpan();
    Span second = tracer.spanBuilder("GET").setAttribute("http.route", "/c").setAttribute("tenant.id", longRoute).startSpan();
    Span other = tracer.spanBuilder("GET").setAttribute("http.route", "/d").startSpan();

    byte[] firstBytes = bridge.attributesOf(registry.idOf(first.getSpanContext()));
    byte[] secondBytes = bridge.attributesOf(registry.idOf(second.getSpanContext()));
    byte[] otherBytes = bridge.attributesOf(registry.idOf(other.getSpanContext()));

    assertThat(firstBytes).isEqualTo(new byte[] {0, 2, '/', 'c'}).isEqualTo(secondBytes);
    assertThat(otherBytes).isEqualTo(new byte[] {0, 2, '/', 'd'});
    assertThat(attributes.droppedValues()).isEqualTo(2);
    assertThat(attributes.recordBytes(new String[] {"http.route", "/c", "tenant.id", longRoute}))
        .as("packed once, shared")
        .isSameAs(attributes.recordBytes(new String[] {"http.route", "/c", "tenant.id", longRoute}));
    Integer firstSet = bridge.attributeSetOf(registry.idOf(first.getSpanContext()));
    assertThat(firstSet).as("one set number for equal values").isNotNegative()
        .isEqualTo(bridge.attributeSetOf(registry.idOf(second.getSpanContext())))
        .isNotEqualTo(bridge.attributeSetOf(registry.idOf(other.getSpanContext())));
    assertThat(attributes.droppedValues()).isEqualTo(4);
    first.end();
    second.end();
    other.end();
  }

  @Test
  void spansWhoseStartWasNotSeenHaveNoAttributes() {
    Span foreign = SdkTracerProvider.builder().build().get("other").spanBuilder("x").setAttribute("http.route", "/b").startSpan();
    assertThat(registry.resolve(registry.idOf(foreign.getSpanContext())).attributePairs()).isEmpty();
    foreign.end();
  }

  @Test
  void theKeyMapRefusesKeysBeyond256() {
    AttributeKeyMap map = new AttributeKeyMap();
    for (int i = 0; i < AttributeKeyMap.MAX_KEYS; i++) {
      assertThat(map.indexOf("k" + i)).isEqualTo(i);
    }
    int version = map.version();
    assertThat(map.indexOf("one.too.many")).isEqualTo(-1);
    assertThat(map.refused()).isEqualTo(1);
    assertThat(map.indexOf("k7")).isEqualTo(7);
    assertThat(map.version()).isEqualTo(version);
  }

  @Test
  void recordsWhoseSpansEndedWithEqualValuesShareOneArray() {
    ContextRecord[] records = new ContextRecord[3];
    for (int i = 0; i < records.length; i++) {
      Span root = tracer.spanBuilder("GET").setAttribute("http.request.method", "GET").startSpan();
      root.setAttribute("http.route", i < 2 ? "/orders/{id}" : "/cart");
      records[i] = registry.resolve(registry.idOf(root.getSpanContext()));
      root.end();
    }
    registry.prune(slot -> true); // the ended spans' values are kept now

    assertThat(records[0].attributePairs()).containsExactly("http.route", "/orders/{id}", "http.request.method", "GET");
    assertThat(records[1].attributePairs()).isSameAs(records[0].attributePairs());
    assertThat(records[2].attributePairs()).containsExactly("http.route", "/cart", "http.request.method", "GET");
    assertThat(records[2].attributePairs()).isNotSameAs(records[0].attributePairs());
  }

  @Test
  void beyondTheBoundEachRecordKeepsItsOwnValues() {
    for (int i = 0; i < ContextAttributes.MAX_SHARED_PAIRS; i++) {
      attributes.shared(new String[] {"tenant.id", Integer.toString(i)});
    }
    String[] late = {"tenant.id", "late"};
    assertThat(attributes.shared(late)).isSameAs(late);
    assertThat(attributes.shared(new String[] {"tenant.id", "late"})).isNotSameAs(late);
    assertThat(attributes.shared(new String[] {"tenant.id", "7"})).containsExactly("tenant.id", "7");
    assertThat(attributes.recordBytes(new String[] {"tenant.id", "late"}).set())
        .as("beyond the bound, no shared set number")
        .isEqualTo(ContextBridge.OWN_ATTRIBUTES);
    assertThat(attributes.recordBytes(new String[] {"tenant.id", "7"}).set()).isNotNegative();
  }
}
