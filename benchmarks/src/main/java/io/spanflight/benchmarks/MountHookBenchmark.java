package io.spanflight.benchmarks;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;
import io.spanflight.internal.bridge.ContextBridge;
import io.spanflight.internal.bridge.ContextBridges;
import io.spanflight.internal.capture.CarrierRecordWriter;
import io.spanflight.internal.capture.SwitchRecorder;
import io.spanflight.internal.registry.ContextRegistry;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the virtual-thread hooks add per mount + unmount: the two callbacks as the hooks call them
 * (context lookup, registry lookup, two record-only JNI writes), with a span current on the
 * calling thread as on a virtual thread inside a span. The bytecode hook itself (an inlined static
 * call and a volatile read) is not in here; jdk-facts measured an empty hook at 0-5 ns per mount.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class MountHookBenchmark {
  private final ContextBridge bridge = ContextBridges.create(1024, null, false);
  private final ContextRegistry registry = new ContextRegistry(bridge);
  private final CarrierRecordWriter writer =
      new CarrierRecordWriter(new SwitchRecorder(registry, bridge), bridge);
  private final Runnable onMount = writer.onMount();
  private final Runnable onUnmount = writer.onUnmount();
  private final SpanContext spanContext = SpanContext.create(
      "0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331", TraceFlags.getSampled(), TraceState.getDefault());
  private io.opentelemetry.context.Scope scope;
  private int id;

  @Setup(Level.Trial)
  public void enterSpan() {
    scope = Context.root().with(Span.wrap(spanContext)).makeCurrent();
    id = registry.idOf(spanContext);
    writer.start(); // as a run does: until then the hooks return at once (1.2 ns, measuring nothing)
  }

  @TearDown(Level.Trial)
  public void leaveSpan() {
    scope.close();
  }

  /** One mounted stretch's worth of hook work: show the current span, then show none. */
  @Benchmark
  public void mountThenUnmount() {
    onMount.run();
    onUnmount.run();
  }

  /** The two record-only JNI writes alone (no context or registry lookup). */
  @Benchmark
  public void recordWritesOnly() {
    bridge.showOnRecord(id);
    bridge.showOnRecord(0);
  }
}
