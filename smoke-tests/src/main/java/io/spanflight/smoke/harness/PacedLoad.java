package io.spanflight.smoke.harness;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Requests at a steady rate, each one's latency kept: {@code clients} client threads, each
 * sending one GET every {@code period} (when a response takes longer, the next request goes as soon
 * as it is in). The rate is far below what the app can serve, so that the latencies show the app's
 * responsiveness and not a queue in front of it. Runs from {@link #start} until {@link #stop}.
 */
public final class PacedLoad {
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

  /** What one run measured: requests answered 200, the others, and latency percentiles in µs. */
  public record Latencies(int ok, int failed, String firstFailure, long p50Micros, long p99Micros,
      long maxMicros) {
    public String p99Millis() {
      return String.format(Locale.ROOT, "%.1f", p99Micros / 1000.0);
    }

    @Override
    public String toString() {
      return ok + " ok, " + failed + " failed, p50 " + p50Micros + " µs, p99 " + p99Micros
          + " µs, max " + maxMicros + " µs" + (firstFailure == null ? "" : " (first failure: " + firstFailure + ")");
    }
  }

  private final HttpClient client = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5))
      .build();
  private final URI target;
  private final ScheduledExecutorService clients;
  private final List<ScheduledFuture<?>> tasks = new ArrayList<>();
  private final List<Long> latencies = new ArrayList<>(); // guarded by itself, nanoseconds
  private final AtomicReference<String> firstFailure = new AtomicReference<>();
  private int failed; // guarded by latencies

  private PacedLoad(URI target, int clients) {
    this.target = target;
    this.clients = Executors.newScheduledThreadPool(clients, r -> {
      Thread t = new Thread(r, "paced-load");
      t.setDaemon(true);
      return t;
    });
  }

  /** Starts {@code clients} threads, each sending a GET to {@code target} every {@code period}. */
  public static PacedLoad start(URI target, int clients, Duration period) {
    PacedLoad load = new PacedLoad(target, clients);
    long periodNanos = period.toNanos();
    for (int i = 0; i < clients; i++) {
      load.tasks.add(load.clients.scheduleAtFixedRate(load::sendOne, periodNanos * i / clients, periodNanos,
          TimeUnit.NANOSECONDS));
    }
    return load;
  }

  /** Stops sending, waits for the responses in flight, and returns what was measured. */
  public Latencies stop() throws InterruptedException {
    tasks.forEach(task -> task.cancel(false));
    clients.shutdown();
    if (!clients.awaitTermination(REQUEST_TIMEOUT.toSeconds() + 5, TimeUnit.SECONDS)) {
      clients.shutdownNow();
    }
    return measured();
  }

  /** The latencies measured so far. */
  public Latencies measured() {
    long[] sorted;
    int failures;
    synchronized (latencies) {
      sorted = latencies.stream().mapToLong(Long::longValue).toArray();
      failures = failed;
    }
    Arrays.sort(sorted);
    return new Latencies(sorted.length, failures, firstFailure.get(), micros(percentile(sorted, 0.50)),
        micros(percentile(sorted, 0.99)), micros(sorted.length == 0 ? 0 : sorted[sorted.length - 1]));
  }

  private void sendOne() {
    HttpRequest request = HttpRequest.newBuilder(target).timeout(REQUEST_TIMEOUT).GET().build();
    long start = System.nanoTime();
    String failure;
    try {
      HttpResponse<Void> response = client.send(request, HttpResponse.BodyHandlers.discarding());
      failure = response.statusCode() == 200 ? null : "HTTP " + response.statusCode();
    } catch (IOException e) {
      failure = e.toString();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    long took = System.nanoTime() - start;
    synchronized (latencies) {
      if (failure == null) {
        latencies.add(took);
      } else {
        failed++;
        firstFailure.compareAndSet(null, failure);
      }
    }
  }

  /** The nearest-rank percentile of sorted values; 0 when there are none. */
  static long percentile(long[] sorted, double quantile) {
    if (sorted.length == 0) {
      return 0;
    }
    int rank = (int) Math.ceil(quantile * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
  }

  private static long micros(long nanos) {
    return TimeUnit.NANOSECONDS.toMicros(nanos);
  }
}
