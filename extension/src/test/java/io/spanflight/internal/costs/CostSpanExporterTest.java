package io.spanflight.internal.costs;

import io.spanflight.internal.CollectingReader;
import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.spanflight.internal.format.CostKind;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The holding logic with a watermark and a clock the test moves: spans wait for the stream, leave
 * with their own and their subtree's costs, leave without at the deadline, at the bound or at
 * shutdown, and none is ever dropped.
 */
class CostSpanExporterTest {
  static final long MS = 1_000_000;
  static final long WAIT = 5_000 * MS;
  static final AttributeKey<String> STATUS = CostAttributes.STATUS;
  static final AttributeKey<Long> CPU = AttributeKey.longKey("spanflight.cost.cpu.time_ns");
  static final AttributeKey<Long> SAMPLES = AttributeKey.longKey("spanflight.cost.cpu.samples");
  static final AttributeKey<Long> LOCK = AttributeKey.longKey("spanflight.cost.wait.lock_ns");
  static final AttributeKey<Long> SUBTREE_CPU = AttributeKey.longKey("spanflight.cost.subtree.cpu.time_ns");
  static final AttributeKey<Long> SUBTREE_LOCK = AttributeKey.longKey("spanflight.cost.subtree.wait.lock_ns");

  final AtomicLong now = new AtomicLong(1_000 * MS); // both clocks: span times are watermark times
  final AtomicLong watermark = new AtomicLong(Long.MIN_VALUE);
  final AtomicInteger watermarkRequests = new AtomicInteger();
  boolean running = true;
  final SpanCostTable table = new SpanCostTable(1000);
  final SpanCostLink link = new SpanCostLink();
  final Spans.Recording delegate = new Spans.Recording();
  final CollectingReader reader = new CollectingReader();
  final SdkMeterProvider meters = CollectingReader.provider(reader);
  CostSpanExporter exporter = exporter(100);
  Spans spans = new Spans(exporter);

  CostSpanExporterTest() {
    link.connect(table, watermark::get, () -> running, watermarkRequests::incrementAndGet, t -> {});
  }

  CostSpanExporter exporter(int maxSpans) {
    boolean[] enabled = new boolean[CostKind.COUNT];
    Arrays.fill(enabled, true);
    enabled[CostKind.CPU_TIME] = false; // CPU from execution samples
    return SpanCosts.create(delegate, link, maxSpans, 2, WAIT, enabled, () -> meters.get("test"), List.of(), now::get, now::get);
  }

  @Test
  void aSpanWaitsUntilTheStreamPassesItsEndThenCarriesItsOwnAndItsSubtreesCosts() {
    Span root = spans.start("GET /checkout", SpanKind.SERVER, null, 1_000 * MS);
    root.setAttribute("http.route", "/checkout");
    root.setAttribute("http.request.method", "GET");
    Span child = spans.start("price", SpanKind.INTERNAL, root, 1_010 * MS);
    table.add(Spans.id(root), CostKind.CPU, 20 * MS, 0);
    table.add(Spans.id(child), CostKind.CPU, 20 * MS, 0);
    table.add(Spans.id(child), CostKind.CPU, 20 * MS, 0);
    table.add(Spans.id(child), CostKind.LOCK, 30 * MS, 0);
    Spans.end(child, 1_090 * MS);
    Spans.end(root, 1_100 * MS);
    now.set(1_200 * MS);

    watermark.set(1_095 * MS + SpanHold.END_MARGIN_NANOS); // past the child's end, not the root's
    exporter.tick();
    assertThat(delegate.exported).extracting(SpanData::getName).containsExactly("price");
    assertThat(exporter.held()).isEqualTo(1);

    watermark.set(1_200 * MS);
    exporter.tick();
    SpanData c = delegate.named("price");
    assertThat(c.getAttributes().get(STATUS)).isEqualTo("ok");
    assertThat(c.getAttributes().get(CPU)).isEqualTo(40 * MS);
    assertThat(c.getAttributes().get(SAMPLES)).isEqualTo(2);
    assertThat(c.getAttributes().get(LOCK)).isEqualTo(30 * MS);
    SpanData r = delegate.named("GET /checkout");
    assertThat(r.getAttributes().get(CPU)).isEqualTo(20 * MS);
    assertThat(r.getAttributes().get(LOCK)).isZero(); // known, none seen
    assertThat(r.getAttributes().get(SUBTREE_CPU)).isEqualTo(60 * MS);
    assertThat(r.getAttributes().get(SUBTREE_LOCK)).isEqualTo(30 * MS);
    assertThat(r.getAttributes().get(AttributeKey.stringKey("http.route"))).isEqualTo("/checkout");
    assertThat(table.size()).as("entries leave with their span").isZero();

    Attributes route = Attributes.of(RouteCostMetrics.ROUTE, "/checkout", RouteCostMetrics.METHOD, "GET");
    assertThat(reader.value("spanflight.request.cpu.time", route)).isEqualTo(0.060, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(reader.value("spanflight.request.count", route)).isEqualTo(1);
    assertThat(reader.value("spanflight.request.wait.time", route.toBuilder().put(RouteCostMetrics.WAIT_KIND, "lock").build()))
        .isEqualTo(0.030, org.assertj.core.data.Offset.offset(1e-9));
  }

  @Test
  void atTheDeadlineASpanGoesOutWithoutCostsAndSaysWhy() {
    Span span = spans.start("slow stream", SpanKind.SERVER, null, 1_000 * MS);
    table.add(Spans.id(span), CostKind.CPU, 20 * MS, 0);
    Spans.end(span, 1_010 * MS);
    watermark.set(900 * MS);

    now.addAndGet(WAIT - 1);
    exporter.tick();
    assertThat(delegate.exported).isEmpty();
    now.addAndGet(1);
    exporter.tick();

    SpanData out = delegate.named("slow stream");
    assertThat(out.getAttributes().get(STATUS)).isEqualTo("timeout");
    assertThat(out.getAttributes().get(CPU)).as("unknown is absent, not zero").isNull();
    assertThat(table.size()).isZero();
    assertThat(reader.value("spanflight.span_costs.spans", Attributes.of(RouteCostMetrics.STATUS, "timeout"))).isEqualTo(1);
  }

  @Test
  void aStreamThatDeliversNothingIsAskedForAnEventAtMostOnceInAWhile() {
    Spans.end(spans.start("idle app", SpanKind.SERVER, null, 1_000 * MS), 1_001 * MS);
    exporter.tick();
    assertThat(watermarkRequests).hasValue(0);
    now.addAndGet(CostSpanExporter.IDLE_STREAM_NANOS);
    exporter.tick();
    exporter.tick();
    assertThat(watermarkRequests).hasValue(1);
    now.addAndGet(CostSpanExporter.IDLE_STREAM_NANOS);
    exporter.tick();
    assertThat(watermarkRequests).hasValue(2);
  }

  @Test
  void atTheBoundSpansGoOutAtOnceWithoutCostsAndAreCounted() {
    for (int i = 0; i < 101; i++) {
      Spans.end(spans.start("s" + i, SpanKind.SERVER, null, 1_000 * MS), 1_001 * MS);
    }
    assertThat(exporter.held()).isEqualTo(100);
    assertThat(delegate.exported).hasSize(1);
    assertThat(delegate.exported.get(0).getAttributes().get(STATUS)).isEqualTo("overflow");
    assertThat(reader.value("spanflight.span_costs.spans", Attributes.of(RouteCostMetrics.STATUS, "overflow"))).isEqualTo(1);

    watermark.set(2_000 * MS);
    exporter.tick();
    assertThat(delegate.exported).hasSize(101);
    assertThat(delegate.exported).extracting(s -> s.getAttributes().get(STATUS)).containsOnly("ok", "overflow");
  }

  @Test
  void shutdownSendsEverythingHeldAtOnceThenShutsTheWrappedExporterDown() {
    Spans.end(spans.start("joined", SpanKind.SERVER, null, 1_000 * MS), 1_001 * MS);
    Spans.end(spans.start("not yet", SpanKind.SERVER, null, 1_000 * MS), 1_500 * MS);
    watermark.set(1_100 * MS);

    assertThat(exporter.shutdown().isSuccess()).isTrue(); // no tick, no clock move: nothing waits

    assertThat(delegate.named("joined").getAttributes().get(STATUS)).isEqualTo("ok");
    assertThat(delegate.named("not yet").getAttributes().get(STATUS)).isEqualTo("flushed");
    assertThat(delegate.calls).containsExactly("export 2", "shutdown");
    assertThat(exporter.held()).isZero();

    Spans.end(spans.start("after", SpanKind.SERVER, null, 2_000 * MS), 2_001 * MS);
    assertThat(delegate.named("after")).as("passed through, never held").isNotNull();
    assertThat(exporter.held()).isZero();
  }

  @Test
  void flushSendsWhatIsHeldThenFlushesTheWrappedExporter() {
    Spans.end(spans.start("held", SpanKind.SERVER, null, 1_000 * MS), 1_001 * MS);
    assertThat(exporter.flush().isSuccess()).isTrue();
    assertThat(delegate.calls).containsExactly("export 1", "flush");
  }

  @Test
  void whileProfilingIsOffSpansGoOutAtOnceMarkedOff() {
    running = false;
    Spans.end(spans.start("off", SpanKind.SERVER, null, 1_000 * MS), 1_001 * MS);
    assertThat(delegate.named("off").getAttributes().get(STATUS)).isEqualTo("off");
    assertThat(exporter.held()).isZero();
  }

  @Test
  void aChildWithUnknownCostsLeavesItsParentsSubtreeUnknown() {
    Span root = spans.start("root", SpanKind.SERVER, null, 1_000 * MS);
    Span child = spans.start("child", SpanKind.INTERNAL, root, 1_000 * MS);
    Spans.end(child, 1_010 * MS);
    now.addAndGet(WAIT);
    exporter.tick(); // the child times out
    Spans.end(root, 1_020 * MS);
    watermark.set(Long.MAX_VALUE);
    exporter.tick();

    SpanData r = delegate.named("root");
    assertThat(r.getAttributes().get(STATUS)).isEqualTo("ok");
    assertThat(r.getAttributes().get(CPU)).isZero();
    assertThat(r.getAttributes().get(SUBTREE_CPU)).isNull();
  }

  @Test
  void routesBeyondTheLimitFoldIntoOther() {
    for (String route : new String[] {"/a", "/b", "/c", "/d"}) {
      Span span = spans.start(route, SpanKind.SERVER, null, 1_000 * MS);
      span.setAttribute("http.route", route);
      Spans.end(span, 1_001 * MS);
    }
    watermark.set(Long.MAX_VALUE);
    exporter.tick();
    assertThat(reader.value("spanflight.request.count", Attributes.of(RouteCostMetrics.ROUTE, "/b"))).isEqualTo(1);
    assertThat(reader.value("spanflight.request.count", Attributes.of(RouteCostMetrics.ROUTE, "other"))).isEqualTo(2);
    assertThat(reader.value("spanflight.request.routes_folded", Attributes.empty())).isEqualTo(2);
  }
}
