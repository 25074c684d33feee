package io.spanflight.benchmarks;

import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.spanflight.internal.bridge.ContextBridge;
import io.spanflight.internal.bridge.ContextBridges;
import io.spanflight.internal.bridge.JavaContextBridge;
import io.spanflight.internal.registry.ContextRegistry;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
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

/**
 * The parts of one recorded switch, measured one by one, to see what dominates its cost; and the
 * parts of a switch without JNI (the direction of the capture redesign): the thread's record and
 * ring as memory found once per thread (direct buffers through a {@link ThreadLocal}), a handful of
 * stores and fences, timed by {@code System.nanoTime} or by JFR's own tick counter ({@code
 * jdk.jfr.internal.JVM.counterTime()}, the intrinsic JFR stamps its events with; this fork opens
 * {@code jdk.jfr.internal} for it, and falls back to {@code nanoTime} where that fails, saying so).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--add-exports=jdk.jfr/jdk.jfr.internal=ALL-UNNAMED")
@State(Scope.Benchmark)
public class SwitchPartsBenchmark {
  private static final MethodHandle COUNTER_TIME = counterTime();
  private static final ThreadLocal<ThreadRegion> REGION = ThreadLocal.withInitial(ThreadRegion::new);

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

  private static final byte[] ROUTE = {0, 6, '/', 'o', 'w', 'n', 'e', 'r'};
  private int defined;

  /**
   * A span's native definition when its attribute set is known (the usual case): written from
   * Java into the table's chunk, no JNI call (since 2026-12-06).
   */
  @Benchmark
  public void defineKnownSet() {
    nativeBridge.define(1 + (++defined & 1023), 0x0af7651916cd43ddL, 0x8448eb211c80319cL, defined, (byte) 1, ROUTE, 7);
  }

  /**
   * The same through JNI, as every definition was before: a known set numbered beyond the ones the
   * Java side keeps ({@code TableChunks.SETS}).
   */
  @Benchmark
  public void defineKnownSetThroughJni() {
    nativeBridge.define(1 + (++defined & 1023), 0x0af7651916cd43ddL, 0x8448eb211c80319cL, defined, (byte) 1, ROUTE,
        5_000);
  }

  /** The same with the context's own attribute bytes (copied through JNI every time). */
  @Benchmark
  public void defineOwnBytes() {
    nativeBridge.define(1 + (++defined & 1023), 0x0af7651916cd43ddL, 0x8448eb211c80319cL, defined, (byte) 1, ROUTE,
        ContextBridge.OWN_ATTRIBUTES);
  }

  /** ThreadLocal lookup + nanoTime + ring append. */
  @Benchmark
  public void bridgeSwitch() {
    bridge.switchTo(7);
  }

  /** JFR's tick counter alone (rdtsc where JFR uses the TSC). */
  @Benchmark
  public long jfrTicks() throws Throwable {
    return (long) COUNTER_TIME.invokeExact();
  }

  /** A switch without JNI, timed by {@code System.nanoTime}. */
  @Benchmark
  public void directSwitchNanoTime() {
    REGION.get().write(System.nanoTime(), 7, 0x0af7651916cd43ddL, 0x8448eb211c80319cL, 0xb7ad6b7169203331L);
  }

  /** A switch without JNI, timed by JFR's tick counter. */
  @Benchmark
  public void directSwitchJfrTicks() throws Throwable {
    long ticks = (long) COUNTER_TIME.invokeExact();
    REGION.get().write(ticks, 7, 0x0af7651916cd43ddL, 0x8448eb211c80319cL, 0xb7ad6b7169203331L);
  }

  /** One thread's OTEP-4947-like record and timeline ring, as native memory would be reached from Java. */
  static final class ThreadRegion {
    private static final int RING_ENTRIES = 4096;
    private static final int ENTRY_BYTES = 16;
    private final ByteBuffer record = ByteBuffer.allocateDirect(64).order(ByteOrder.nativeOrder());
    private final ByteBuffer ring = ByteBuffer.allocateDirect(RING_ENTRIES * ENTRY_BYTES + 8).order(ByteOrder.nativeOrder());
    private long written;

    void write(long time, int contextId, long traceHigh, long traceLow, long spanId) {
      record.put(0, (byte) 0); // invalid while it changes
      VarHandle.storeStoreFence();
      record.putLong(8, traceHigh);
      record.putLong(16, traceLow);
      record.putLong(24, spanId);
      VarHandle.storeStoreFence();
      record.put(0, (byte) 1);
      int at = (int) (written & (RING_ENTRIES - 1)) * ENTRY_BYTES;
      ring.putLong(at, time);
      ring.putInt(at + 8, contextId);
      written++;
      VarHandle.releaseFence();
      ring.putLong(RING_ENTRIES * ENTRY_BYTES, written); // published count
    }
  }

  private static MethodHandle counterTime() {
    try {
      Class<?> jvm = Class.forName("jdk.jfr.internal.JVM");
      return MethodHandles.lookup().findStatic(jvm, "counterTime", MethodType.methodType(long.class));
    } catch (ReflectiveOperationException | RuntimeException e) {
      System.err.println("jdk.jfr.internal.JVM.counterTime() not reachable (" + e + "): jfr* benchmarks use System.nanoTime");
      try {
        return MethodHandles.lookup().findStatic(System.class, "nanoTime", MethodType.methodType(long.class));
      } catch (ReflectiveOperationException impossible) {
        throw new IllegalStateException(impossible);
      }
    }
  }
}
