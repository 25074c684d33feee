package io.spanflight.smoke.harness;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/** Sends GET requests to an app on the loopback interface, from a few client threads. */
public final class LoadDriver {
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

  /** What happened in one run: responses with status 200, everything else, the first failure. */
  public record Result(int ok, int failed, String firstFailure) {
    @Override
    public String toString() {
      return ok + " ok, " + failed + " failed"
          + (firstFailure == null ? "" : " (first: " + firstFailure + ")");
    }
  }

  private final URI base;
  private final HttpClient client;

  public LoadDriver(URI base) {
    this.base = base;
    this.client = HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(5))
        .build();
  }

  /** Sends {@code requests} requests to {@code path} from {@code concurrency} threads. */
  public Result send(String path, int requests, int concurrency) {
    Tally tally = new Tally();
    AtomicInteger issued = new AtomicInteger();
    return run(concurrency, Duration.ofSeconds(5), tally, ignored -> {}, () -> {
      while (issued.getAndIncrement() < requests && !Thread.currentThread().isInterrupted()) {
        get(path, tally);
      }
    });
  }

  /**
   * Sends requests for {@code duration}, each thread cycling through {@code paths}, and reports
   * the running totals to {@code progress} every {@code progressEvery}.
   */
  public Result sendFor(Duration duration, List<String> paths, int concurrency,
      Duration progressEvery, Consumer<Result> progress) {
    Tally tally = new Tally();
    long deadline = System.nanoTime() + duration.toNanos();
    return run(concurrency, progressEvery, tally, progress, () -> {
      for (int i = 0; System.nanoTime() - deadline < 0 && !Thread.currentThread().isInterrupted(); i++) {
        get(paths.get(i % paths.size()), tally);
      }
    });
  }

  private static Result run(int concurrency, Duration progressEvery, Tally tally,
      Consumer<Result> progress, Runnable worker) {
    ExecutorService pool = Executors.newFixedThreadPool(concurrency);
    for (int i = 0; i < concurrency; i++) {
      pool.execute(worker);
    }
    pool.shutdown();
    try {
      while (!pool.awaitTermination(progressEvery.toMillis(), TimeUnit.MILLISECONDS)) {
        progress.accept(tally.result());
      }
    } catch (InterruptedException e) {
      pool.shutdownNow();
      Thread.currentThread().interrupt();
    }
    return tally.result();
  }

  private void get(String path, Tally tally) {
    HttpRequest request =
        HttpRequest.newBuilder(base.resolve(path)).timeout(REQUEST_TIMEOUT).GET().build();
    try {
      HttpResponse<Void> response = client.send(request, HttpResponse.BodyHandlers.discarding());
      if (response.statusCode() == 200) {
        tally.ok.incrementAndGet();
      } else {
        tally.fail(path + " -> HTTP " + response.statusCode());
      }
    } catch (IOException e) {
      tally.fail(path + " -> " + e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      tally.fail(path + " -> interrupted");
    }
  }

  private static final class Tally {
    final AtomicInteger ok = new AtomicInteger();
    final AtomicInteger failed = new AtomicInteger();
    final AtomicReference<String> firstFailure = new AtomicReference<>();

    void fail(String what) {
      failed.incrementAndGet();
      firstFailure.compareAndSet(null, what);
    }

    Result result() {
      return new Result(ok.get(), failed.get(), firstFailure.get());
    }
  }
}
