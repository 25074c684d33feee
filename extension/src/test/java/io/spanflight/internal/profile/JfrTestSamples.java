package io.spanflight.internal.profile;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.spanflight.internal.TestBridge;
import io.spanflight.internal.registry.AttributeKeyMap;
import io.spanflight.internal.registry.ContextAttributes;
import io.spanflight.internal.registry.ContextRecord;
import io.spanflight.internal.registry.ContextRegistry;
import io.spanflight.internal.registry.LocalRoot;
import io.spanflight.internal.registry.LocalRoots;
import java.nio.file.Path;
import java.time.Duration;
import io.spanflight.internal.jfr.chunk.ChunkReader;
import io.spanflight.internal.jfr.chunk.ConstantStore;
import io.spanflight.internal.jfr.join.StoreStacks;
import java.util.ArrayList;
import java.util.List;
import jdk.jfr.Recording;

/** Real JFR execution samples and span records for the encoder tests. */
final class JfrTestSamples {
  /** The leaf method of most samples, as the exported function name. */
  static final String BURN_FUNCTION = JfrTestSamples.class.getName() + ".burn";

  private JfrTestSamples() {}

  /** One execution sample as Spanflight's reader gives it: its stack in {@code stacks}, its time. */
  record Sample(InternedStacks stacks, int stack, long epochNanos) {}

  /** Records about 600 ms of execution samples at a 10 ms period while {@link #burn} runs. */
  static List<Sample> record(Path dir) throws Exception {
    Path file = dir.resolve("samples.jfr");
    try (Recording recording = new Recording()) {
      recording.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(10));
      recording.start();
      // 600 ms of this thread's CPU (not of wall time: on a busy machine the thread may get only a
      // fraction of a core, and JFR samples it only while it runs), at most 20 s of wall time
      java.lang.management.ThreadMXBean cpu = java.lang.management.ManagementFactory.getThreadMXBean();
      long cpuEnd = cpu.getCurrentThreadCpuTime() + Duration.ofMillis(600).toNanos();
      long wallEnd = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      long sink = 0;
      while (cpu.getCurrentThreadCpuTime() < cpuEnd && System.nanoTime() < wallEnd) {
        sink += burn(sink);
      }
      recording.stop();
      recording.dump(file);
      assertThat(sink).isNotEqualTo(42);
    }
    ConstantStore store = new ConstantStore();
    InternedStacks stacks = new StoreStacks(store);
    List<Sample> samples = new ArrayList<>();
    ChunkReader[] reader = new ChunkReader[1];
    reader[0] = new ChunkReader(store, new String[] {"jdk.ExecutionSample"}, new String[][] {{"startTime", "stackTrace"}},
        (subscription, values) -> samples.add(new Sample(stacks, reader[0].stack(values[1]), reader[0].nanos(values[0]))));
    reader[0].read(file);
    assertThat(samples).as("JFR execution samples").hasSizeGreaterThan(5);
    assertThat(samples).as("each with its stack").allMatch(sample -> sample.stack() >= 0);
    return samples;
  }

  private static long burn(long seed) {
    long x = seed;
    for (int i = 0; i < 100_000; i++) {
      x = x * 31 + i;
    }
    return x;
  }

  /**
   * The record of a server span (sampled or not, as the trace flags say) whose local root carries
   * {@code http.route} and {@code http.request.method = GET}.
   */
  static ContextRecord spanWithRoute(String route, boolean sampled) {
    // an SDK without span processors hands out non-recording spans
    Tracer tracer = SdkTracerProvider.builder().addSpanProcessor(new LocalRoots()).build().get("test");
    Span root = tracer.spanBuilder("GET " + route).setAttribute("http.route", route)
        .setAttribute("http.request.method", "GET").startSpan();
    root.end();
    SpanContext ids = root.getSpanContext();
    SpanContext flagged = SpanContext.create(ids.getTraceId(), ids.getSpanId(),
        sampled ? TraceFlags.getSampled() : TraceFlags.getDefault(), TraceState.getDefault());
    LocalRoot localRoot = new LocalRoot((ReadableSpan) root);
    ContextAttributes attributes = new ContextAttributes(
        List.of("http.route", "http.request.method"), span -> localRoot, new AttributeKeyMap());
    ContextRegistry registry = ContextRegistry.builder(new TestBridge()).attributes(attributes).build();
    return registry.resolve(registry.idOf(flagged));
  }

  /** The record of a sampled span with these ids. */
  static ContextRecord span(String traceId, String spanId) {
    ContextRegistry registry = new ContextRegistry(new TestBridge());
    return registry.resolve(
        registry.idOf(SpanContext.create(traceId, spanId, TraceFlags.getSampled(), TraceState.getDefault())));
  }
}
