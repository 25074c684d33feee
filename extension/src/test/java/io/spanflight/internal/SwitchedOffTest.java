package io.spanflight.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.resources.Resource;
import io.spanflight.internal.bridge.ContextBridge;
import io.spanflight.internal.bridge.JavaContextBridge;
import io.spanflight.internal.bridge.NativeContextBridge;
import io.spanflight.internal.capture.SpanflightContextStorage;
import io.spanflight.internal.registry.ContextRecord;
import io.spanflight.internal.registry.LocalRoots;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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

  private static Spanflight start() {
    return start(true);
  }

  private static Spanflight start(boolean nativeBridge) {
    return Spanflight.start(QuietSettings.of(nativeBridge), Resource.getDefault(), new LocalRoots());
  }

  @Test
  void whileOffNothingIsInternedOrAllocatedAndOnAgainLinksAreRight() throws Exception {
    Spanflight spanflight = start();
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
      assertLinked(spanflight, 7);
    } finally {
      spanflight.shutdown();
    }
  }

  /**
   * Threads that switched while on (so each has a ring) end while off: their rings are freed while
   * still off, with none of our threads running (no drain); switched on again, links are right.
   */
  @ParameterizedTest(name = "native bridge: {0}")
  @ValueSource(booleans = {true, false})
  void threadsEndingWhileOffFreeTheirRingsWhileOff(boolean nativeBridge) throws Exception {
    Spanflight spanflight = start(nativeBridge);
    try {
      int threads = 12;
      CountDownLatch inSpan = new CountDownLatch(threads);
      CountDownLatch end = new CountDownLatch(1);
      List<Thread> started = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int n = 2000 + t;
        Thread thread = new Thread(() -> {
          inSpan(n);
          inSpan.countDown();
          awaitQuietly(end);
        });
        thread.start();
        started.add(thread);
      }
      inSpan.await();
      assertThat(spanflight.switchOff()).isTrue();
      int withThreads = ringCount(spanflight.bridge());

      end.countDown();
      for (Thread thread : started) {
        thread.join();
      }
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      while (ringCount(spanflight.bridge()) > withThreads - threads) {
        assertThat(System.nanoTime()).as("rings still held while off: " + ringCount(spanflight.bridge())
            + ", with the threads: " + withThreads).isLessThan(deadline);
        System.gc(); // the Java bridge holds the rings of ended threads weakly while off
        Thread.onSpinWait();
      }
      assertThat(spanflight.running()).isFalse();

      assertThat(spanflight.switchOn()).isTrue();
      assertLinked(spanflight, 9);
    } finally {
      spanflight.shutdown();
    }
  }

  /** Switched off while its run is still starting: the run stops quietly, no task "failed". */
  @Test
  void switchedOffWhileStartingLogsNoFailure() throws Exception {
    List<String> warnings = new java.util.concurrent.CopyOnWriteArrayList<>();
    java.util.logging.Handler handler = new java.util.logging.Handler() {
      @Override
      public void publish(java.util.logging.LogRecord record) {
        if (record.getLevel().intValue() >= java.util.logging.Level.WARNING.intValue()) {
          warnings.add(record.getMessage() + " " + record.getThrown());
        }
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
    java.util.logging.Logger logger = java.util.logging.Logger.getLogger("io.spanflight");
    logger.addHandler(handler);
    try {
      for (int i = 0; i < 5; i++) {
        Spanflight spanflight = start();
        try {
          assertThat(spanflight.switchOff()).isTrue();
          assertThat(spanflight.switchOn()).isTrue();
          assertThat(spanflight.switchOff()).isTrue();
        } finally {
          spanflight.shutdown();
        }
      }
    } finally {
      logger.removeHandler(handler);
    }
    assertThat(warnings).noneMatch(message -> message.contains("failed"));
  }

  /** A switch into span {@code n} made now joins span {@code n} once drained. */
  @SuppressWarnings("deprecation") // Thread.threadId() exists from 19 on; we run on 17.
  private static void assertLinked(Spanflight spanflight, int n) {
    long threadId = Thread.currentThread().getId();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    try (Scope ignored = Context.root().with(Span.wrap(span(n))).makeCurrent()) {
      long inside = System.nanoTime();
      ContextRecord linked = null;
      while (linked == null) {
        assertThat(System.nanoTime()).as("the switch not drained within 20 s").isLessThan(deadline);
        spanflight.timelines().drain();
        int id = spanflight.timelines().contextAt(threadId, inside + 1);
        linked = id > 0 ? spanflight.registry().resolve(id) : null;
      }
      assertThat(linked.spanIdHex()).isEqualTo(span(n).getSpanId());
    }
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
