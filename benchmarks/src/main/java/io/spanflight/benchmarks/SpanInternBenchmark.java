package io.spanflight.benchmarks;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.spanflight.internal.bridge.ContextBridge;
import io.spanflight.internal.bridge.ContextBridges;
import io.spanflight.internal.registry.AttributeKeyMap;
import io.spanflight.internal.registry.ContextAttributes;
import io.spanflight.internal.registry.ContextRegistry;
import io.spanflight.internal.registry.LocalRoots;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What a span costs Spanflight on the request thread beyond its switches: its first use interns a
 * context (record, native definition with the route and method of its local root) and its end
 * takes it out of the key map. Spans of a request under one root span with {@code http.route} and
 * {@code http.request.method}, as the defaults read; the registry is pruned as in a run.
 * {@code spanBare} is the SDK's own cost of starting and ending such a span, for scale, and
 * {@code span} the same with our span processor ({@link LocalRoots}, which also tells the registry
 * of each end; until 2026-11-29 there were two, {@code LocalRoots} and {@code EndedSpans}).
 * <pre>java -jar benchmarks/target/benchmarks.jar SpanInternBenchmark -jvmArgsAppend --enable-native-access=ALL-UNNAMED</pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Benchmark)
public class SpanInternBenchmark {
  private final LocalRoots localRoots = new LocalRoots();
  private final Tracer tracer = SdkTracerProvider.builder().addSpanProcessor(localRoots).build().get("bench");
  /** A tracer with one span processor that does nothing (with none, the SDK records no span at all). */
  private final Tracer bareTracer =
      SdkTracerProvider.builder().addSpanProcessor(new IdleProcessor()).build().get("bench");
  private final ContextBridge bridge = ContextBridges.create(1024, null, false);
  private final ContextRegistry registry = ContextRegistry.builder(bridge)
      .attributes(new ContextAttributes(
          List.of("http.route", "http.request.method"), localRoots::localRoot, new AttributeKeyMap()))
      .liveSpans(localRoots, false)
      .build();
  private Span root;

  private static final class IdleProcessor implements io.opentelemetry.sdk.trace.SpanProcessor {
    @Override
    public void onStart(Context parentContext, io.opentelemetry.sdk.trace.ReadWriteSpan span) {}

    @Override
    public boolean isStartRequired() {
      return false;
    }

    @Override
    public void onEnd(io.opentelemetry.sdk.trace.ReadableSpan span) {}

    @Override
    public boolean isEndRequired() {
      return true;
    }
  }
  private Context rootContext;
  private int uses;

  @Setup
  public void setUp() {
    localRoots.connect(registry);
    root = tracer.spanBuilder("GET /owners/{ownerId}").startSpan();
    root.setAttribute("http.route", "/owners/{ownerId}");
    root.setAttribute("http.request.method", "GET");
    rootContext = Context.root().with(root);
  }

  /** Start and end a child span, the SDK without our span processors. */
  @Benchmark
  public Span spanBare() {
    Span child = bareTracer.spanBuilder("child").setParent(rootContext).startSpan();
    child.end();
    return child;
  }

  /** Start and end a child span (the SDK and our span processor). */
  @Benchmark
  public Span span() {
    Span child = tracer.spanBuilder("child").setParent(rootContext).startSpan();
    child.end();
    return child;
  }

  /** The same, with its context interned once while it runs. */
  @Benchmark
  public int spanInterned() {
    Span child = tracer.spanBuilder("child").setParent(rootContext).startSpan();
    SpanContext context = child.getSpanContext();
    int id = registry.idOf(context);
    child.end();
    if (++uses % 4096 == 0) {
      registry.prune(index -> false);
    }
    return id;
  }
}
