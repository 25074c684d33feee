package io.spanflight.benchmarks;

import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * End-to-end cost of a virtual-thread unmount + mount under the real javaagent: virtual threads,
 * each inside its own span, call {@code Thread.yield()} in a loop (every yield unmounts the thread
 * and mounts it again, through the agent's wrapped continuation task). Run it three times, with the
 * agent alone, with Spanflight (mount hooks on), and with Spanflight's Java bridge (no record, so
 * no hooks); the difference of the last two is what the hooks cost per mount + unmount.
 *
 * <pre>
 * java -javaagent:opentelemetry-javaagent.jar [-Dotel.javaagent.extensions=spanflight.jar]
 *      -Dotel.traces.exporter=none -Dotel.metrics.exporter=none -Dotel.logs.exporter=none
 *      -Djdk.virtualThreadScheduler.parallelism=1
 *      -cp benchmarks.jar io.spanflight.benchmarks.VirtualThreadMountHarness [threads] [yields] [rounds]
 * </pre>
 *
 * Prints ns per yield (one unmount + one mount) for each round, then the median. A CLI tool:
 * it prints to stdout. JDK 21+.
 */
public final class VirtualThreadMountHarness {
  private VirtualThreadMountHarness() {}

  public static void main(String[] args) throws Exception {
    int threads = args.length > 0 ? Integer.parseInt(args[0]) : 2;
    int yields = args.length > 1 ? Integer.parseInt(args[1]) : 200_000;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 7;
    Tracer tracer = GlobalOpenTelemetry.getTracer("mount-harness");
    double[] perYield = new double[rounds];
    for (int round = 0; round < rounds; round++) {
      long start = System.nanoTime();
      List<Thread> started = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        started.add(startVirtualThread(() -> yieldInSpan(tracer, yields)));
      }
      for (Thread thread : started) {
        thread.join();
      }
      perYield[round] = (System.nanoTime() - start) / (double) ((long) threads * yields);
      System.out.printf(Locale.ROOT, "round %d: %.1f ns per yield%n", round, perYield[round]);
    }
    double[] sorted = perYield.clone();
    Arrays.sort(sorted);
    System.out.printf(Locale.ROOT, "median of %d rounds (first dropped as warm-up): %.1f ns per yield"
        + " (unmount + mount), min %.1f, max %.1f%n",
        rounds - 1, median(Arrays.copyOfRange(perYield, 1, rounds)), sorted[0], sorted[rounds - 1]);
  }

  private static void yieldInSpan(Tracer tracer, int yields) {
    Span span = tracer.spanBuilder("yielding").startSpan();
    try (Scope ignored = span.makeCurrent()) {
      for (int i = 0; i < yields; i++) {
        Thread.yield();
      }
    } finally {
      span.end();
    }
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  /** {@code Thread.ofVirtual().start(body)}, called reflectively (compiled for 17). */
  private static Thread startVirtualThread(Runnable body) throws ReflectiveOperationException {
    Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
    return (Thread) Class.forName("java.lang.Thread$Builder").getMethod("start", Runnable.class)
        .invoke(builder, body);
  }
}
