package io.spanflight.smoke.harness;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

/**
 * Sends numbered requests ({@code ?id=<n>&ms=<m>}), each in a trace of its own: the driver makes
 * a fresh trace id per request and sends it in a W3C {@code traceparent} header (sampled), so the
 * server's span joins that trace. What was sent (id, path, trace id) is kept, so that a test can
 * find a request's spans without asking the thing it checks.
 */
public final class TracedLoad {
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

  /** One request: its id, the path it went to, and the trace id it was sent with (hex). */
  public record Sent(int id, String path, String traceId) {}

  private final HttpClient client = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5))
      .build();
  private final AtomicInteger nextId = new AtomicInteger();
  private final int maxId;
  private final Map<Integer, Sent> sent = new ConcurrentHashMap<>();

  /** Ids run from 0 up; {@code maxId} is the largest the app accepts. */
  public TracedLoad(int maxId) {
    this.maxId = maxId;
  }

  /** The request with this id, if one was sent. */
  public Optional<Sent> sent(int id) {
    return Optional.ofNullable(sent.get(id));
  }

  /**
   * Sends requests to {@code base} + {@code path}, each burning {@code millis} ms, from {@code
   * concurrency} threads for {@code duration}; returns when every response is in.
   */
  public LoadDriver.Result run(URI base, String path, long millis, int concurrency, Duration duration) {
    return run(base, path, millis, concurrency, duration, () -> false);
  }

  /**
   * Like {@link #run(URI, String, long, int, Duration)}, but stops sending as soon as {@code
   * enough} says so (checked before each request).
   */
  public LoadDriver.Result run(URI base, String path, long millis, int concurrency, Duration duration,
      BooleanSupplier enough) {
    AtomicInteger ok = new AtomicInteger();
    AtomicInteger failed = new AtomicInteger();
    AtomicReference<String> firstFailure = new AtomicReference<>();
    long deadline = System.nanoTime() + duration.toNanos();
    ExecutorService threads = Executors.newFixedThreadPool(concurrency);
    for (int t = 0; t < concurrency; t++) {
      threads.execute(() -> {
        while (System.nanoTime() - deadline < 0 && !enough.getAsBoolean()
            && !Thread.currentThread().isInterrupted()) {
          String failure = send(base, path, millis);
          if (failure == null) {
            ok.incrementAndGet();
          } else {
            failed.incrementAndGet();
            firstFailure.compareAndSet(null, failure);
          }
        }
      });
    }
    threads.shutdown();
    try {
      if (!threads.awaitTermination(duration.plus(REQUEST_TIMEOUT).toMillis(), TimeUnit.MILLISECONDS)) {
        threads.shutdownNow();
        failed.incrementAndGet();
        firstFailure.compareAndSet(null, "requests still running after " + duration.plus(REQUEST_TIMEOUT));
      }
    } catch (InterruptedException e) {
      threads.shutdownNow();
      Thread.currentThread().interrupt();
    }
    return new LoadDriver.Result(ok.get(), failed.get(), firstFailure.get());
  }

  /** Sends one request; null when it answered 200, else what went wrong. */
  private String send(URI base, String path, long millis) {
    int id = nextId.getAndIncrement();
    if (id > maxId) {
      return "out of request ids (" + maxId + ")";
    }
    String traceId = randomHex(16);
    sent.put(id, new Sent(id, path, traceId));
    HttpRequest request = HttpRequest.newBuilder(base.resolve(path + "?id=" + id + "&ms=" + millis))
        .timeout(REQUEST_TIMEOUT)
        .header("traceparent", "00-" + traceId + "-" + randomHex(8) + "-01")
        .GET()
        .build();
    try {
      HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
      return response.statusCode() == 200 ? null
          : path + " id " + id + " -> HTTP " + response.statusCode() + ": " + response.body().strip();
    } catch (IOException e) {
      return path + " id " + id + " -> " + e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return path + " id " + id + " -> interrupted";
    }
  }

  /** {@code bytes} random bytes as lowercase hex, never all zero (an invalid W3C id). */
  static String randomHex(int bytes) {
    byte[] id = new byte[bytes];
    do {
      ThreadLocalRandom.current().nextBytes(id);
    } while (isZero(id));
    return HexFormat.of().formatHex(id);
  }

  private static boolean isZero(byte[] id) {
    for (byte b : id) {
      if (b != 0) {
        return false;
      }
    }
    return true;
  }

  /** All requests sent so far. */
  public List<Sent> all() {
    return List.copyOf(sent.values());
  }
}
