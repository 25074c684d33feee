package io.spanflight.internal.registry;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
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
 */
class RecordReuseStressTest {
  private static final long RUN_NANOS = 2_000_000_000L;

  private final ContextRegistry registry = new ContextRegistry(new JavaContextBridge(16));
  private final ConcurrentLinkedQueue<long[]> handedOut = new ConcurrentLinkedQueue<>(); // {id, span}
  private final AtomicBoolean running = new AtomicBoolean(true);
  private final AtomicLong nextSpan = new AtomicLong(1);
  private final AtomicLong resolved = new AtomicLong();
  private final AtomicLong reusedSlots = new AtomicLong();
  private final List<String> wrong = new ArrayList<>();

  private static SpanContext span(long n) {
    return SpanContext.create(
        String.format("%032x", n), String.format("%016x", n), TraceFlags.getSampled(), TraceState.getDefault());
  }

  @Test
  void underConcurrentReuseEveryResolvedIdIsTheSpanItWasGivenFor() throws Exception {
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
      long n = nextSpan.getAndIncrement();
      SpanContext span = span(n);
      int id = registry.idOf(span);
      if (id != ContextRegistry.NO_CONTEXT) {
        if (ContextIds.generation(id) > 0) {
          reusedSlots.incrementAndGet();
        }
        if (handedOut.size() < 10_000) {
          handedOut.add(new long[] {id, n});
        }
      }
      int again = registry.idOf(span); // asked again while it runs: the same id, or a new one that resolves to it
      if (again != ContextRegistry.NO_CONTEXT && handedOut.size() < 10_000) {
        handedOut.add(new long[] {again, n});
      }
      registry.spanEnded(span);
    }
  }

  private void read() {
    ReadWindow window = registry.readWindow();
    while (running.get()) {
      long[] given = handedOut.poll();
      if (given == null) {
        Thread.onSpinWait();
        continue;
      }
      window.open();
      try {
        ContextRecord record = registry.resolve((int) given[0]);
        if (record != null) {
          if (resolved.incrementAndGet() % 16 == 0) {
            LockSupport.parkNanos(500_000); // a join held up while it uses the record: prunes go on
          }
          String spanId = record.spanIdHex();
          String traceId = record.traceIdHex();
          String expected = span(given[1]).getSpanId();
          if (!spanId.equals(expected) || !traceId.endsWith(expected)) {
            synchronized (wrong) {
              wrong.add("id " + given[0] + " given for span " + expected + " resolved to " + traceId + "/" + spanId);
            }
          }
        }
      } finally {
        window.close();
      }
    }
  }
}
