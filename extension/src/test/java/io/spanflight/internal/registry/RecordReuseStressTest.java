package io.spanflight.internal.registry;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.spanflight.internal.bridge.ContextIds;
import io.spanflight.internal.bridge.JavaContextBridge;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * Capture threads intern and end spans, a pruner reuses slots as fast as it can, and a reader
 * resolves the ids the capture threads got: no id ever resolves to a span it was not given for.
 * Once with span contexts the SDK never saw (the key map), once with recorded spans, interned
 * through their {@link LiveSpan} and ended through {@link LocalRoots}, as in a run.
 */
class RecordReuseStressTest {
  private static final long RUN_NANOS = 2_000_000_000L;

  private ContextRegistry registry = new ContextRegistry(new JavaContextBridge(16));
  /** A span started by a capture thread, and how it ends (null: a context the SDK never saw). */
  private Tracer tracer;
  private final ConcurrentLinkedQueue<Given> handedOut = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean running = new AtomicBoolean(true);
  private final AtomicLong nextSpan = new AtomicLong(1);
  private final AtomicLong resolved = new AtomicLong();
  private final AtomicLong reusedSlots = new AtomicLong();
  private final List<String> wrong = new ArrayList<>();

  /** An id a capture thread got for a span. */
  private record Given(int id, SpanContext span) {}

  private static SpanContext span(long n) {
    return SpanContext.create(
        String.format("%032x", n), String.format("%016x", n), TraceFlags.getSampled(), TraceState.getDefault());
  }

  @Test
  void underConcurrentReuseEveryResolvedIdIsTheSpanItWasGivenFor() throws Exception {
    run();
  }

  @Test
  void liveSpansTooUnderConcurrentReuse() throws Exception {
    LocalRoots liveSpans = new LocalRoots();
    registry = ContextRegistry.builder(new JavaContextBridge(16)).liveSpans(liveSpans, false).build();
    liveSpans.connect(registry);
    tracer = SdkTracerProvider.builder().addSpanProcessor(liveSpans).build().get("stress");
    run();
  }

  private void run() throws Exception {
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      threads.add(new Thread(this::capture, "capture-" + i));
    }
    threads.add(new Thread(() -> {
      while (running.get()) {
        registry.prune(index -> false); // no timeline refers to anything: slots free as soon as allowed
      }
    }, "pruner"));
    threads.add(new Thread(this::read, "reader"));
    threads.forEach(Thread::start);
    Thread.sleep(RUN_NANOS / 1_000_000);
    running.set(false);
    for (Thread thread : threads) {
      thread.join(10_000);
    }

    assertThat(wrong).as("ids resolved to a span they were not given for").isEmpty();
    assertThat(resolved.get()).as("the reader resolved ids while they were current").isPositive();
    assertThat(reusedSlots.get()).as("slots were handed out again").isPositive();
  }

  private void capture() {
    while (running.get()) {
      Span started = tracer == null ? null : tracer.spanBuilder("s").startSpan();
      SpanContext span = started == null ? span(nextSpan.getAndIncrement()) : started.getSpanContext();
      int id = registry.idOf(span);
      if (id != ContextRegistry.NO_CONTEXT) {
        if (ContextIds.generation(id) > 0) {
          reusedSlots.incrementAndGet();
        }
        if (handedOut.size() < 10_000) {
          handedOut.add(new Given(id, span));
        }
      }
      int again = registry.idOf(span); // asked again while it runs: the same id, or a new one that resolves to it
      if (again != ContextRegistry.NO_CONTEXT && handedOut.size() < 10_000) {
        handedOut.add(new Given(again, span));
      }
      if (started == null) {
        registry.spanEnded(span);
      } else {
        started.end();
      }
    }
  }

  private void read() {
    ReadWindow window = registry.readWindow();
    while (running.get()) {
      Given given = handedOut.poll();
      if (given == null) {
        Thread.onSpinWait();
        continue;
      }
      window.open();
      try {
        ContextRecord record = registry.resolve(given.id());
        if (record != null) {
          if (resolved.incrementAndGet() % 16 == 0) {
            LockSupport.parkNanos(500_000); // a join held up while it uses the record: prunes go on
          }
          String spanId = record.spanIdHex();
          String traceId = record.traceIdHex();
          String expected = given.span().getSpanId();
          if (!spanId.equals(expected) || !traceId.equals(given.span().getTraceId())) {
            synchronized (wrong) {
              wrong.add("id " + given.id() + " given for span " + expected + " resolved to " + traceId + "/" + spanId);
            }
          }
        }
      } finally {
        window.close();
      }
    }
  }
}
