package io.spanflight.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.autoconfigure.spi.internal.DefaultConfigProperties;
import io.opentelemetry.sdk.resources.Resource;
import io.spanflight.internal.bridge.ContextBridge;
import io.spanflight.internal.bridge.JavaContextBridge;
import io.spanflight.internal.bridge.NativeContextBridge;
import io.spanflight.internal.capture.SpanflightContextStorage;
import io.spanflight.internal.config.SpanflightConfig;
import io.spanflight.internal.registry.ContextRecord;
import io.spanflight.internal.registry.LocalRoots;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Profiling switched off at run time: switches made meanwhile, on existing and on new threads,
 * intern nothing and allocate no rings; switched on again, a switch links to its span.
 */
class SwitchedOffTest {

  @BeforeAll
  static void installBeforeTheStorageIsFirstUsed() {
    SpanflightContextStorage.install();
  }

  private static SpanContext span(int n) {
    return SpanContext.create(
        String.format("%032x", n + 1), String.format("%016x", n + 1), TraceFlags.getSampled(), TraceState.getDefault());
  }

  private static void inSpan(int n) {
    try (Scope ignored = Context.root().with(Span.wrap(span(n))).makeCurrent()) {
      // a switch into span n and back out
    }
  }

  private static int ringCount(ContextBridge bridge) {
    if (bridge instanceof NativeContextBridge) {
      return ((NativeContextBridge) bridge).ringCount();
    }
    return ((JavaContextBridge) bridge).ringCount();
  }

  @Test
  @SuppressWarnings("deprecation") // Thread.threadId() exists from 19 on; we run on 17.
  void whileOffNothingIsInternedOrAllocatedAndOnAgainLinksAreRight() throws Exception {
    SpanflightConfig config =
        SpanflightConfig.read(
            DefaultConfigProperties.createFromMap(
                Map.of("otel.spanflight.exporter", "none", "otel.spanflight.jmx.enabled", "false")));
    Spanflight spanflight = Spanflight.start(config, Resource.getDefault(), new LocalRoots());
    try {
      inSpan(0);
      assertThat(spanflight.switchOff()).isTrue();
      int interned = spanflight.registry().size();
      int rings = ringCount(spanflight.bridge());

      for (int i = 1; i <= 500; i++) {
        inSpan(i);
      }
      for (int t = 0; t < 4; t++) {
        int base = 1000 * (t + 1);
        Thread thread = new Thread(() -> {
          for (int i = 0; i < 100; i++) {
            inSpan(base + i);
          }
        });
        thread.start();
        thread.join();
      }
      assertThat(spanflight.registry().size()).as("contexts interned while off").isEqualTo(interned);
      assertThat(ringCount(spanflight.bridge())).as("rings while off").isLessThanOrEqualTo(rings);

      assertThat(spanflight.switchOn()).isTrue();
      long threadId = Thread.currentThread().getId();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      try (Scope ignored = Context.root().with(Span.wrap(span(7))).makeCurrent()) {
        long inside = System.nanoTime();
        ContextRecord linked = null;
        while (linked == null) {
          assertThat(System.nanoTime()).as("the switch not drained within 20 s").isLessThan(deadline);
          spanflight.timelines().drain();
          int id = spanflight.timelines().contextAt(threadId, inside + 1);
          linked = id > 0 ? spanflight.registry().resolve(id) : null;
        }
        assertThat(linked.spanIdHex()).isEqualTo(span(7).getSpanId());
      }
    } finally {
      spanflight.shutdown();
    }
  }
}
