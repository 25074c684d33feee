package io.spanflight.benchmarks;

import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.spanflight.internal.bridge.ContextBridge;
import io.spanflight.internal.bridge.ContextBridges;
import io.spanflight.internal.bridge.JavaContextBridge;
import io.spanflight.internal.registry.ContextRegistry;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/** The parts of one recorded switch, measured one by one, to see what dominates its cost. */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Benchmark)
public class SwitchPartsBenchmark {
  private final JavaContextBridge bridge = new JavaContextBridge(1024);
  private final ContextRegistry registry = new ContextRegistry(bridge);
  private final ContextBridge nativeBridge = ContextBridges.create(1024, null, false);
  private final SpanContext spanContext =
      SpanContext.create(
          "0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331", TraceFlags.getSampled(), TraceState.getDefault());

  @Setup
  public void setUp() {
    DrainWarmUp.drain(nativeBridge, 20);
  }

  @Benchmark
  public long nanoTime() {
    return System.nanoTime();
  }

  @Benchmark
  public int registryLookup() {
    return registry.idOf(spanContext);
  }

  /**
   * One JNI call: the switch clock (TSC ticks where trusted, else clock_gettime) + OTEP-4947
   * record write + ring append (id 0: record cleared).
   */
  @Benchmark
  public void nativeBridgeSwitch() {
    nativeBridge.switchTo(0);
  }

  /** ThreadLocal lookup + nanoTime + ring append. */
  @Benchmark
  public void bridgeSwitch() {
    bridge.switchTo(7);
  }
}
