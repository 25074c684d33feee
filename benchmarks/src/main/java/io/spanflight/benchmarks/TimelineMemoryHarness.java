package io.spanflight.benchmarks;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.autoconfigure.spi.internal.DefaultConfigProperties;
import io.opentelemetry.sdk.resources.Resource;
import io.spanflight.internal.Spanflight;
import io.spanflight.internal.capture.SpanflightContextStorage;
import io.spanflight.internal.config.SpanflightConfig;
import io.spanflight.internal.control.ProfilerControl.Counter;
import io.spanflight.internal.registry.LocalRoots;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

/**
 * Memory of timelines and registry under a high context-switch rate, with CPU sampling on and
 * default settings: N threads each make R switches per second (attach + close pairs over fresh
 * spans, with a little CPU work in each) for S seconds. Prints, once a second and at the end, the
 * timelines' array bytes, their steps, the interned contexts, and the samples joined, unknown and
 * lost; in the last second it also measures the heap retained after a full GC, against a baseline
 * taken before the switching started (timelines, registry, and whatever else Spanflight and JFR
 * hold). Run: {@code java -cp benchmarks/target/benchmarks.jar io.spanflight.benchmarks.TimelineMemoryHarness [seconds] [threads] [switchesPerSecond]}.
 */
public final class TimelineMemoryHarness {
  private static volatile long sink;
  /**
   * How far a switcher may fall behind its schedule and still catch up. After a longer stall (the
   * harness's own full GC) it resumes at the set rate: catching up 100 ms at once would switch at
   * about twenty times the set rate for a few milliseconds.
   */
  private static final long MAX_CATCH_UP_NANOS = 5_000_000L;

  private TimelineMemoryHarness() {}

  public static void main(String[] args) throws Exception {
    int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 60;
    int threads = args.length > 1 ? Integer.parseInt(args[1]) : 4;
    int rate = args.length > 2 ? Integer.parseInt(args[2]) : 100_000;
    SpanflightContextStorage.install();
    SpanflightConfig config =
        SpanflightConfig.read(DefaultConfigProperties.createFromMap(Map.of("otel.spanflight.exporter", "none", "otel.spanflight.timeline.ring.size", System.getProperty("ring", "4096"))));
    Spanflight spanflight = Spanflight.start(config, Resource.getDefault(), new LocalRoots());

    long baseline = retainedHeap();
    long end = System.nanoTime() + seconds * 1_000_000_000L;
    long retained = -1;
    long lostInFullGc = 0;
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int worker = t;
      Thread thread = new Thread(() -> switchAtRate(worker, rate / 2, end), "switcher-" + t);
      thread.start();
      workers.add(thread);
    }
    long peakBytes = 0;
    int peakSteps = 0;
    long peakContexts = 0;
    while (System.nanoTime() < end) {
      LockSupport.parkNanos(1_000_000_000L);
      if (retained < 0 && end - System.nanoTime() < 1_500_000_000L) {
        long lostBefore = spanflight.timelines().lostEntries();
        retained = retainedHeap() - baseline; // while the threads still switch at full rate
        spanflight.timelines().drain();
        lostInFullGc = spanflight.timelines().lostEntries() - lostBefore;
      }
      long bytes = spanflight.timelines().memoryBytes();
      int steps = spanflight.timelines().stepCount();
      long contexts = spanflight.counter(Counter.CONTEXTS); // the registry's size
      peakBytes = Math.max(peakBytes, bytes);
      peakSteps = Math.max(peakSteps, steps);
      peakContexts = Math.max(peakContexts, contexts);
      System.out.printf(
          "timelines %.1f MB (%d steps), contexts %d, lost switches %d, %s%n",
          bytes / 1e6, steps, contexts, spanflight.timelines().lostEntries(), spanflight.joiner().counts().summary());
    }
    for (Thread thread : workers) {
      thread.join();
    }
    System.out.printf(
        "%nresult: %d threads x %d switches/s for %d s: peak timelines %.1f MB (%d steps), peak contexts %d,"
            + " retained heap growth %.1f MB, samples %d, unknown-timeline %d, lost switches %d (%d of them over the step cap, %d in the rings while the harness's own full GC for the retained heap stopped the drain)%n",
        threads, rate, seconds, peakBytes / 1e6, peakSteps, peakContexts, retained / 1e6,
        spanflight.joiner().counts().samples(), spanflight.joiner().counts().unknownTimeline(), spanflight.timelines().lostEntries(),
        spanflight.timelines().overCap(), lostInFullGc);
    spanflight.shutdown();
  }

  /** Heap in use after a full collection. */
  private static long retainedHeap() {
    System.gc();
    return java.lang.management.ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  /** {@code pairsPerSecond} attach+close pairs, a fresh span every 10 pairs, paced per millisecond. */
  private static void switchAtRate(int worker, int pairsPerSecond, long end) {
    int perMilli = Math.max(1, pairsPerSecond / 1000);
    long next = System.nanoTime();
    long n = 0;
    Context context = Context.root();
    while (System.nanoTime() < end) {
      for (int i = 0; i < perMilli; i++, n++) {
        if (n % 10 == 0) {
          SpanContext sc =
              SpanContext.create(
                  String.format("%016x%016x", worker + 1, n), String.format("%016x", n + 1), TraceFlags.getSampled(), TraceState.getDefault());
          context = Context.root().with(Span.wrap(sc));
        }
        try (Scope ignored = context.makeCurrent()) {
          sink += work(n);
        }
      }
      next += 1_000_000L;
      long wait = next - System.nanoTime();
      if (wait > 0) {
        LockSupport.parkNanos(wait);
      } else if (wait < -MAX_CATCH_UP_NANOS) {
        next = System.nanoTime(); // after a stall (a full GC): the set rate again, not a burst to catch up
      }
    }
  }

  private static long work(long seed) {
    long x = seed;
    for (int i = 0; i < 300; i++) {
      x = x * 6364136223846793005L + 1442695040888963407L;
    }
    return x;
  }
}
