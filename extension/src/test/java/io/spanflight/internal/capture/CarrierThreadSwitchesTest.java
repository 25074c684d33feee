package io.spanflight.internal.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.ContextStorage;
import io.opentelemetry.context.Scope;
import io.spanflight.internal.TestBridge;
import io.spanflight.internal.registry.ContextRegistry;
import java.lang.reflect.Field;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * On JDK 25 the javaagent wraps the virtual-thread scheduler's continuation task with the
 * submitter's (stale) context, so the carrier attaches that span around each mount. This test does
 * what that wrapper does, on a real carrier of the JDK's scheduler: the switch must not reach the
 * timeline or the record. A plain ForkJoinPool worker doing the same is recorded (the control).
 */
class CarrierThreadSwitchesTest {

  /** Records "carrier:id" or "other:id" per switch, as the bridge sees them. */
  private static final class RecordingBridge extends TestBridge {
    final List<String> switches = new CopyOnWriteArrayList<>();

    @Override
    public void switchTo(int contextId) {
      switches.add((CarrierThreads.isCarrier(Thread.currentThread()) ? "carrier:" : "other:") + contextId);
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

  @Test
  void aCarriersOwnContextSwitchesAreIgnored() throws Exception {
    ForkJoinPool scheduler = virtualThreadScheduler();
    SpanflightContextStorage.start(new SwitchRecorder(registry, bridge));
    Context stale = withSpan(7);

    scheduler.submit(() -> attachAndClose(stale)).get(10, TimeUnit.SECONDS);
    ForkJoinPool plain = new ForkJoinPool(1);
    try {
      plain.submit(() -> attachAndClose(stale)).get(10, TimeUnit.SECONDS);
    } finally {
      plain.shutdown();
    }

    int staleId = registry.idOf(Span.fromContext(stale).getSpanContext());
    assertThat(bridge.switches).as("switches seen by the bridge").containsExactly("other:" + staleId, "other:0");
  }

  @Test
  void virtualThreadsOnCarriersStillSwitch() throws Exception {
    virtualThreadScheduler();
    SpanflightContextStorage.start(new SwitchRecorder(registry, bridge));
    Context own = withSpan(8);

    Thread thread = startVirtualThread(() -> attachAndClose(own));
    thread.join(TimeUnit.SECONDS.toMillis(10));

    int ownId = registry.idOf(Span.fromContext(own).getSpanContext());
    assertThat(bridge.switches).containsExactly("other:" + ownId, "other:0");
  }

  private void attachAndClose(Context context) {
    try (Scope scope = storage.attach(context)) {
      assertThat(storage.current()).isSameAs(context);
    }
  }

  /** {@code Thread.ofVirtual().start(body)}: JDK 21 API, called reflectively (tests compile for 17). */
  private static Thread startVirtualThread(Runnable body) throws ReflectiveOperationException {
    Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
    return (Thread) Class.forName("java.lang.Thread$Builder").getMethod("start", Runnable.class)
        .invoke(builder, body);
  }

  /** The JDK's virtual-thread scheduler, whose workers are the carriers (JDK 21+). */
  private static ForkJoinPool virtualThreadScheduler() throws ReflectiveOperationException {
    assumeTrue(Runtime.version().feature() >= 21, "no virtual threads before JDK 21");
    Field field = Class.forName("java.lang.VirtualThread").getDeclaredField("DEFAULT_SCHEDULER");
    field.setAccessible(true); // opened to the tests by the build (--add-opens java.base/java.lang)
    return (ForkJoinPool) field.get(null);
  }

  private static Context withSpan(int n) {
    SpanContext sc = SpanContext.create(
        String.format("%032x", n), String.format("%016x", n), TraceFlags.getSampled(), TraceState.getDefault());
    return Context.root().with(Span.wrap(sc));
  }
}
