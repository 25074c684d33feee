package io.spanflight.benchmarks;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.spanflight.internal.bridge.JavaContextBridge;
import io.spanflight.internal.capture.SpanflightContextStorage;
import io.spanflight.internal.capture.SwitchRecorder;
import io.spanflight.internal.registry.ContextRegistry;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Attach + close of a span scope through the real {@code ContextStorage} path, with and without
 * the Spanflight wrapper (one fork each: the wrapper is global to a JVM). Run with
 * {@code -prof gc} to see bytes allocated per pair.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(org.openjdk.jmh.annotations.Scope.Benchmark)
public class ScopeSwitchBenchmark {

  @Param({"false", "true"})
  public boolean spanflight;

  private Context context;

  @Setup
  public void setUp() {
    if (spanflight) {
      SpanflightContextStorage.install(); // before the storage is first used, as in the agent
      JavaContextBridge bridge = new JavaContextBridge(1024);
      SpanflightContextStorage.start(new SwitchRecorder(new ContextRegistry(bridge), bridge));
    }
    SpanContext spanContext =
        SpanContext.create(
            "0af7651916cd43dd8448eb211c80319c",
            "b7ad6b7169203331",
            TraceFlags.getSampled(),
            TraceState.getDefault());
    context = Context.root().with(Span.wrap(spanContext));
  }

  @Benchmark
  public void attachAndClose() {
    try (Scope ignored = context.makeCurrent()) {
      // the pair is what is measured
    }
  }
}
