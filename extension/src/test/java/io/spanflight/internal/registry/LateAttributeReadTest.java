package io.spanflight.internal.registry;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.AttributeType;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.spanflight.internal.TestBridge;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A thread that reads an ended span's attributes into its record (at span end, on the
 * application's thread) and is held up meanwhile, while the record is retired, freed and defined
 * for another span, must not leave the first span's attributes on the second span's record.
 */
class LateAttributeReadTest {
  private static SpanContext span(int n) {
    return SpanContext.create(
        String.format("%032x", n), String.format("%016x", n), TraceFlags.getSampled(), TraceState.getDefault());
  }

  /** A local-root span with one route; reading it blocks the thread {@code slow} until {@code go}. */
  private static ReadableSpan root(
      SpanContext context, String route, boolean[] ended, Thread[] slow, CountDownLatch reading, CountDownLatch go) {
    return (ReadableSpan) Proxy.newProxyInstance(
        ReadableSpan.class.getClassLoader(), new Class<?>[] {ReadableSpan.class}, (proxy, method, args) -> {
          switch (method.getName()) {
            case "getSpanContext":
              return context;
            case "hasEnded":
              return ended[0];
            case "getAttribute":
              if (Thread.currentThread() == slow[0]) {
                reading.countDown();
                go.await(10, TimeUnit.SECONDS);
              }
              AttributeKey<?> key = (AttributeKey<?>) args[0];
              return key.getKey().equals("http.route") && key.getType() == AttributeType.STRING ? route : null;
            case "hashCode":
              return System.identityHashCode(proxy);
            case "equals":
              return proxy == args[0];
            default:
              return null;
          }
        });
  }

  @Test
  void aLateReadOfAnEndedSpanDoesNotReachTheRecordsNextSpan() throws Exception {
    Thread[] slow = new Thread[1];
    CountDownLatch reading = new CountDownLatch(1);
    CountDownLatch go = new CountDownLatch(1);
    boolean[] firstEnded = {false};
    Map<SpanContext, LocalRoot> roots = Map.of(
        span(1), new LocalRoot(root(span(1), "/first", firstEnded, slow, reading, go)),
        span(2), new LocalRoot(root(span(2), "/second", new boolean[] {false}, slow, reading, go)));
    ContextAttributes attributes = new ContextAttributes(List.of("http.route"), roots::get, new AttributeKeyMap());
    ContextRegistry registry = ContextRegistry.builder(new TestBridge()).attributes(attributes).build();

    ContextRecord record = registry.resolve(registry.idOf(span(1)));
    firstEnded[0] = true;
    slow[0] = new Thread(record::releaseEndedSource, "ending-thread");
    slow[0].start();
    assertThat(reading.await(10, TimeUnit.SECONDS)).as("the late thread is reading the first span").isTrue();

    for (int i = 0; i < 4; i++) {
      registry.prune(slot -> false); // unused for two epochs: retired; then nobody refers to it: free
    }
    int second = registry.idOf(span(2));
    assertThat(registry.resolve(second)).as("the slot's record, defined for the second span").isSameAs(record);

    go.countDown();
    slow[0].join(10_000);
    assertThat(record.attributePairs()).containsExactly("http.route", "/second");
  }
}
