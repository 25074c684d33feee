package io.spanflight.internal.costs;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.spanflight.internal.CollectingReader;
import io.spanflight.internal.config.InferredSpanSettings;
import java.time.Duration;
import io.spanflight.internal.format.CostKind;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Waits and traced calls joined to a span leave as its children, right after it: on its trace,
 * inside its time on its own clock, nested under the traced call they ran in, capped per span and
 * per second with the rest counted on the parent and in the metrics, and forgotten when the
 * parent never comes.
 */
class InferredSpansTest {
  static final long MS = 1_000_000;
  /** The spans' epoch clock runs this far ahead of the nanoTime clock the events are on. */
  static final long EPOCH_AHEAD = 1_700_000_000_000L * MS;
  static final AttributeKey<String> INFERRED = AttributeKey.stringKey("spanflight.inferred");
  static final AttributeKey<Long> DROPPED = AttributeKey.longKey("spanflight.inferred.dropped");

  final AtomicLong now = new AtomicLong(1_000 * MS);
  final AtomicLong watermark = new AtomicLong(Long.MIN_VALUE);
  final SpanCostLink link = new SpanCostLink();
  final Spans.Recording delegate = new Spans.Recording();
  final CollectingReader reader = new CollectingReader();
  final SdkMeterProvider meters = CollectingReader.provider(reader);
  InferredEvents events = events(true, true, 1, 32, 500);
  CostSpanExporter exporter;
  Spans spans;

  void connect() {
    SpanCostTable table = new SpanCostTable(1000, events);
    link.connect(table, watermark::get, () -> true, () -> {}, t -> {});
    boolean[] enabled = new boolean[CostKind.COUNT];
    Arrays.fill(enabled, true);
    exporter = SpanCosts.create(delegate, link, 100, 2, 5_000 * MS, enabled, () -> meters.get("test"), List.of(),
        now::get, () -> now.get() + EPOCH_AHEAD);
    spans = new Spans(exporter);
  }

  static InferredEvents events(boolean waits, boolean methods, long minMs, int perSpan, int perSecond) {
    return new InferredEvents(new InferredSpanSettings(waits, methods, Duration.ofMillis(minMs), perSpan, perSecond,
        true, false));
  }

  /** An event of {@code type} at {@code startMs} on the nanoTime clock, on thread 7. */
  static InferredEvent event(String type, long startMs, long durationMs, String function) {
    return new InferredEvent(type, startMs * MS, durationMs * MS, 7, function, "at a.B.c(line 3)\n", null);
  }

  @Test
  void waitsAndCallsLeaveAsChildrenInsideTheirParentNestedUnderTheCallTheyRanIn() {
    connect();
    Span root = spans.start("GET /checkout", SpanKind.SERVER, null, 1_000 * MS + EPOCH_AHEAD);
    long id = Spans.id(root);
    events.add(id, event("method_trace", 1_010, 50, "shop.Cart.total"), now.get());
    events.add(id, event("lock_contention", 1_020, 30, null), now.get()); // inside Cart.total
    events.add(id, event("socket_read", 1_070, 20, null), now.get()); // after it
    Spans.end(root, 1_100 * MS + EPOCH_AHEAD);
    watermark.set(1_200 * MS);
    now.set(1_200 * MS);
    exporter.tick();

    assertThat(delegate.exported).extracting(SpanData::getName)
        .containsExactly("GET /checkout", "Cart.total", "wait lock", "wait socket read");
    SpanData parent = delegate.named("GET /checkout");
    SpanData call = delegate.named("Cart.total");
    SpanData lock = delegate.named("wait lock");
    SpanData socket = delegate.named("wait socket read");
    for (SpanData child : List.of(call, lock, socket)) {
      assertThat(child.getTraceId()).isEqualTo(parent.getTraceId());
      assertThat(child.getSpanId()).isNotIn(parent.getSpanId(), "0000000000000000");
      assertThat(child.getStartEpochNanos()).isGreaterThanOrEqualTo(parent.getStartEpochNanos());
      assertThat(child.getEndEpochNanos()).isLessThanOrEqualTo(parent.getEndEpochNanos());
      assertThat(child.getKind()).isEqualTo(SpanKind.INTERNAL);
      assertThat(child.getResource()).isEqualTo(parent.getResource());
    }
    assertThat(call.getParentSpanId()).isEqualTo(parent.getSpanId());
    assertThat(lock.getParentSpanId()).isEqualTo(call.getSpanId());
    assertThat(socket.getParentSpanId()).isEqualTo(parent.getSpanId());
    assertThat(lock.getStartEpochNanos()).isEqualTo(1_020 * MS + EPOCH_AHEAD);
    assertThat(lock.getEndEpochNanos()).isEqualTo(1_050 * MS + EPOCH_AHEAD);
    assertThat(call.getAttributes().get(AttributeKey.stringKey("code.function.name"))).isEqualTo("shop.Cart.total");
    assertThat(lock.getAttributes().get(INFERRED)).isEqualTo("lock_contention");
    assertThat(lock.getAttributes().get(AttributeKey.longKey("thread.id"))).isEqualTo(7L);
    assertThat(lock.getAttributes().get(AttributeKey.stringKey("code.stacktrace"))).isEqualTo("at a.B.c(line 3)\n");
    assertThat(parent.getAttributes().get(DROPPED)).isNull();
    assertThat(parent.getAttributes().get(INFERRED)).isNull();
    assertThat(events.parents()).isZero();
  }

  @Test
  void beyondThePerSpanCapChildrenAreCountedOnTheParentAndInTheMetrics() {
    events = events(true, true, 1, 2, 500);
    connect();
    Span root = spans.start("GET /report", SpanKind.SERVER, null, 1_000 * MS + EPOCH_AHEAD);
    for (int i = 0; i < 5; i++) {
      events.add(Spans.id(root), event("park", 1_001 + 10 * i, 5, null), now.get());
    }
    Spans.end(root, 1_100 * MS + EPOCH_AHEAD);
    watermark.set(1_200 * MS);
    exporter.tick();

    assertThat(delegate.exported).extracting(SpanData::getName).containsExactly("GET /report", "wait park", "wait park");
    assertThat(delegate.named("GET /report").getAttributes().get(DROPPED)).isEqualTo(3L);
    assertThat(reader.value("spanflight.inferred.spans", Attributes.of(RouteCostMetrics.OUTCOME, "sent"))).isEqualTo(2);
    assertThat(reader.value("spanflight.inferred.spans", Attributes.of(RouteCostMetrics.OUTCOME, "dropped"))).isEqualTo(3);
  }

  @Test
  void thePerSecondCapHoldsAcrossSpansAndOpensAgainAfterASecond() {
    events = events(true, true, 1, 32, 3);
    connect();
    for (int i = 0; i < 5; i++) {
      events.add(100 + i, event("park", 1_000, 5, null), 0);
    }
    events.add(200, event("park", 1_000, 5, null), 1_000 * MS); // a second later
    long kept = 0;
    long dropped = 0;
    for (long id : new long[] {100, 101, 102, 103, 104, 200}) {
      InferredEvents.Taken taken = events.take(id);
      kept += taken.events().size();
      dropped += taken.dropped();
    }
    assertThat(kept).isEqualTo(4);
    assertThat(dropped).isEqualTo(2);
  }

  @Test
  void socketWaitsNameTheirPeerAndFileWaitsTheirPathOnlyWhereTheSettingsSaySo() {
    events = new InferredEvents(new InferredSpanSettings(true, true, Duration.ofMillis(1), 32, 500, true, false));
    connect();
    Span root = spans.start("GET /files", SpanKind.SERVER, null, 1_000 * MS + EPOCH_AHEAD);
    events.add(Spans.id(root), new InferredEvent("socket_read", 1_010 * MS, 20 * MS, 7, null, null, "::1:4317"), 0);
    events.add(Spans.id(root), new InferredEvent("file_read", 1_040 * MS, 20 * MS, 7, null, null, "/home/ann/x"), 0);
    Spans.end(root, 1_100 * MS + EPOCH_AHEAD);
    watermark.set(1_200 * MS);
    exporter.tick();

    Attributes socket = delegate.named("wait socket read").getAttributes();
    assertThat(socket.get(AttributeKey.stringKey("server.address"))).isEqualTo("::1");
    assertThat(socket.get(AttributeKey.longKey("server.port"))).isEqualTo(4317L);
    Attributes file = delegate.named("wait file read").getAttributes();
    assertThat(file.get(AttributeKey.stringKey("file.path"))).as("paths are off by default").isNull();
    assertThat(file.get(INFERRED)).isEqualTo("file_read");
  }

  @Test
  void onlyWantedKindsAtOrAboveTheMinimumBecomeSpans() {
    InferredEvents waitsOnly = events(true, false, 2, 32, 500);
    assertThat(waitsOnly.wanted(false, 2 * MS)).isTrue();
    assertThat(waitsOnly.wanted(false, 2 * MS - 1)).isFalse();
    assertThat(waitsOnly.wanted(true, 50 * MS)).isFalse();
  }

  @Test
  void theEventsOfAParentThatNeverComesAreForgottenWithTheCostTable() {
    connect();
    SpanCostTable table = new SpanCostTable(10, events);
    events.add(42, event("park", 1_000, 5, null), 1_000 * MS);
    table.expire(2_000 * MS);
    assertThat(events.parents()).isZero();
    assertThat(events.take(42).events()).isEmpty();
  }
}
