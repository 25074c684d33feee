package io.spanflight.internal.capture;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.ContextStorage;
import io.opentelemetry.context.Scope;
import io.spanflight.internal.TestBridge;
import io.spanflight.internal.registry.ContextRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code otel.spanflight.scope.events}: scopes longer than the threshold become JFR events whose
 * ids are {@code @jdk.jfr.Contextual}; on JDK 25 the JDK's own {@code jfr print} then shows the
 * span as context of the events the thread committed inside the scope (here a {@code
 * jdk.ThreadSleep}; CPU samples are committed by the sampler thread, so tools show no context on
 * them).
 */
class ScopeEventTest {
  private static final SpanContext LONG = span("0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331");
  private static final SpanContext SHORT = span("4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7");

  @TempDir Path dir;
  private final TestBridge bridge = new TestBridge();
  private final SpanflightContextStorage storage = new SpanflightContextStorage(ContextStorage.defaultStorage());

  @AfterEach
  void stop() {
    SpanflightContextStorage.stop();
    SpanflightContextStorage.recordScopeEvents(false);
  }

  private static SpanContext span(String traceId, String spanId) {
    return SpanContext.create(traceId, spanId, TraceFlags.getSampled(), TraceState.getDefault());
  }

  @Test
  void scopesLongerThanTheThresholdAreRecordedWithContextualIds() throws Exception {
    SpanflightContextStorage.start(new SwitchRecorder(new ContextRegistry(bridge), bridge));
    SpanflightContextStorage.recordScopeEvents(true);
    Path file = dir.resolve("scopes.jfr");
    try (Recording recording = new Recording()) {
      recording.enable(SpanScopeEvent.class).withThreshold(Duration.ofMillis(20));
      recording.enable("jdk.ThreadSleep").withThreshold(Duration.ZERO);
      recording.start();
      try (Scope ignored = storage.attach(Context.root().with(Span.wrap(SHORT)))) {
        burn(1);
      }
      try (Scope ignored = storage.attach(Context.root().with(Span.wrap(LONG)))) {
        burn(30);
        Thread.sleep(25); // the work of this scope: a jdk.ThreadSleep event on this thread
      }
      recording.stop();
      recording.dump(file);
    }

    List<RecordedEvent> scopes = RecordingFile.readAllEvents(file).stream()
        .filter(e -> e.getEventType().getName().equals(SpanScopeEvent.NAME))
        .toList();
    assertThat(scopes).hasSize(1);
    assertThat(scopes.get(0).getString("traceId")).isEqualTo(LONG.getTraceId());
    assertThat(scopes.get(0).getString("spanId")).isEqualTo(LONG.getSpanId());
    assertThat(scopes.get(0).getEventType().getField("spanId").getAnnotationElements())
        .anySatisfy(a -> assertThat(a.getTypeName()).isEqualTo("jdk.jfr.Contextual"));

    if (Runtime.version().feature() >= 25) {
      String printed = jfrPrint(file);
      assertThat(printed).as("jfr print of the sleep").contains("jdk.ThreadSleep");
      assertThat(printed).as("the JDK's tool shows the span as the sleep's context")
          .contains("Context: SpanScope.spanId = \"" + LONG.getSpanId() + "\"");
    }
  }

  /** {@code jfr print --events jdk.ThreadSleep} of the running JDK. */
  private static String jfrPrint(Path file) throws Exception {
    Path jfr = Path.of(System.getProperty("java.home"), "bin", "jfr");
    Process p = new ProcessBuilder(jfr.toString(), "print", "--events", "jdk.ThreadSleep", file.toString())
        .redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return out;
  }

  private static long burn(long millis) {
    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    long x = 1;
    while (System.nanoTime() < end) {
      for (int i = 0; i < 10_000; i++) {
        x = x * 31 + i;
      }
    }
    return x;
  }
}
