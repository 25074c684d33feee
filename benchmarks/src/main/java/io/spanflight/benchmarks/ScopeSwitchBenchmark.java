package io.spanflight.benchmarks;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.spanflight.internal.bridge.ContextBridge;
import io.spanflight.internal.bridge.ContextBridges;
import io.spanflight.internal.capture.SpanflightContextStorage;
import io.spanflight.internal.capture.SwitchRecorder;
import io.spanflight.internal.registry.ContextRegistry;
import io.spanflight.internal.registry.LocalRoots;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Attach + close of a span scope through the real {@code ContextStorage} path: without
 * Spanflight ({@code off}), with the pure-Java bridge ({@code java}) and with the native bridge
 * ({@code native}), on a platform thread and inside a virtual thread (JDK 21+). One fork per
 * combination: the wrapper is global to a JVM. Run with {@code -prof gc} for bytes per pair.
 *
 * <p>{@code span}: {@code recorded}, a span the SDK records (as the agent's spans are), which the
 * registry finds through its {@link LocalRoots} entry as in a run; {@code wrapped}, a span context
 * no SDK has seen (what every run of this benchmark measured until 2026-11-29), which goes through
 * the registry's key map.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(org.openjdk.jmh.annotations.Scope.Benchmark)
public class ScopeSwitchBenchmark {
  static final int PAIRS_PER_VIRTUAL_THREAD = 10_000;

  @Param({"off", "java", "native"})
  public String spanflight;

  @Param({"recorded", "wrapped"})
  public String span;

  private final LocalRoots localRoots = new LocalRoots();
  private Context context;
  private MethodHandle startVirtualThread;

  @Setup
  public void setUp() throws ReflectiveOperationException {
    if (!spanflight.equals("off")) {
      SpanflightContextStorage.install(); // before the storage is first used, as in the agent
      ContextBridge bridge = ContextBridges.create(1024, null, spanflight.equals("java"));
      if (spanflight.equals("native") && !bridge.implementation().startsWith("native")) {
        throw new IllegalStateException("native bridge unavailable: " + bridge.implementation());
      }
      ContextRegistry registry = ContextRegistry.builder(bridge).liveSpans(localRoots, false).build();
      localRoots.connect(registry);
      SpanflightContextStorage.start(new SwitchRecorder(registry, bridge));
      DrainWarmUp.drain(bridge, 20);
    }
    if (span.equals("recorded")) {
      Tracer tracer = SdkTracerProvider.builder().addSpanProcessor(localRoots).build().get("bench");
      context = Context.root().with(tracer.spanBuilder("request").startSpan());
    } else {
      SpanContext spanContext =
          SpanContext.create(
              "0af7651916cd43dd8448eb211c80319c",
              "b7ad6b7169203331",
              TraceFlags.getSampled(),
              TraceState.getDefault());
      context = Context.root().with(Span.wrap(spanContext));
    }
    try {
      startVirtualThread =
          MethodHandles.publicLookup()
              .findStatic(Thread.class, "startVirtualThread", MethodType.methodType(Thread.class, Runnable.class));
    } catch (NoSuchMethodException e) {
      startVirtualThread = null; // JDK 17: the virtual-thread benchmark fails with a clear message
    }
  }

  @Benchmark
  public void platformThread() {
    try (Scope ignored = context.makeCurrent()) {
      // the pair is what is measured
    }
  }

  /** {@value #PAIRS_PER_VIRTUAL_THREAD} pairs inside one virtual thread, per invocation. */
  @Benchmark
  @OperationsPerInvocation(PAIRS_PER_VIRTUAL_THREAD)
  public void virtualThread() throws Throwable {
    if (startVirtualThread == null) {
      throw new IllegalStateException("virtual threads need JDK 21+");
    }
    Runnable pairs =
        () -> {
          for (int i = 0; i < PAIRS_PER_VIRTUAL_THREAD; i++) {
            try (Scope ignored = context.makeCurrent()) {
              // the pair is what is measured
            }
          }
        };
    ((Thread) startVirtualThread.invoke(pairs)).join();
  }
}
