package io.spanflight.demo.load;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * Closed-loop load on a service on the loopback interface: a fixed number of clients per {@link
 * Route}, each with its own keep-alive connection, sending its next request as soon as the
 * previous one is answered. The request rate is therefore what the service sustains at that
 * concurrency (not a fixed rate): a slower service gets fewer requests.
 *
 * <p>Every run is bounded in time and stops by itself.
 */
public final class LoadGenerator {
  private final int port;
  private final List<Route> routes;

  public LoadGenerator(int port, List<Route> routes) {
    this.port = port;
    this.routes = List.copyOf(routes);
  }

  /** A running tally, for progress lines. */
  public record Progress(long elapsedNanos, long ok, long failed) {}

  /**
   * Runs for {@code duration}; every {@code progressEvery} (if positive) reports the running
   * tally to {@code progress}.
   */
  public LoadResult run(Duration duration, Duration progressEvery, Consumer<Progress> progress)
      throws InterruptedException {
    long start = System.nanoTime();
    long deadline = start + duration.toNanos();
    AtomicLong ok = new AtomicLong();
    AtomicLong failed = new AtomicLong();
    AtomicReference<String> firstFailure = new AtomicReference<>();
    List<Client> clients = new ArrayList<>();
    for (Route route : routes) {
      for (int i = 0; i < route.clients(); i++) {
        clients.add(new Client(route, deadline, ok, failed, firstFailure));
      }
    }
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < clients.size(); i++) {
      Thread thread = new Thread(clients.get(i), "load-client-" + i);
      thread.setDaemon(true);
      threads.add(thread);
      thread.start();
    }
    long nextProgress = progressEvery.isZero() ? Long.MAX_VALUE : start + progressEvery.toNanos();
    for (Thread thread : threads) {
      while (thread.isAlive()) {
        long now = System.nanoTime();
        if (now - nextProgress >= 0) {
          progress.accept(new Progress(now - start, ok.get(), failed.get()));
          nextProgress += progressEvery.toNanos();
        }
        thread.join(50); // wakes up for the progress line; the clients stop at the deadline
      }
    }
    long elapsed = System.nanoTime() - start;
    Map<String, Long> byEndpoint = new HashMap<>();
    int latencies = 0;
    for (Client c : clients) {
      byEndpoint.merge(c.route.endpoint(), (long) c.count, Long::sum);
      latencies += c.count;
    }
    long[] all = new long[latencies];
    int at = 0;
    for (Client c : clients) {
      System.arraycopy(c.latencies, 0, all, at, c.count);
      at += c.count;
    }
    return new LoadResult(ok.get(), failed.get(), firstFailure.get(), byEndpoint, all, elapsed);
  }

  /** One closed-loop client on its own connection. */
  private final class Client implements Runnable {
    final Route route;
    final long deadline;
    final AtomicLong ok;
    final AtomicLong failed;
    final AtomicReference<String> firstFailure;
    long[] latencies = new long[1024];
    int count;

    Client(Route route, long deadline, AtomicLong ok, AtomicLong failed, AtomicReference<String> firstFailure) {
      this.route = route;
      this.deadline = deadline;
      this.ok = ok;
      this.failed = failed;
      this.firstFailure = firstFailure;
    }

    @Override
    public void run() {
      try (HttpConnection connection = new HttpConnection(port)) {
        while (System.nanoTime() - deadline < 0) {
          long sent = System.nanoTime();
          try {
            int status = connection.get(route.path());
            if (status == 200) {
              record(System.nanoTime() - sent);
            } else {
              fail(route.path() + " -> HTTP " + status);
            }
          } catch (IOException | RuntimeException e) {
            fail(route.path() + " -> " + e);
          }
        }
      }
    }

    private void record(long latency) {
      if (count == latencies.length) {
        latencies = java.util.Arrays.copyOf(latencies, count * 2);
      }
      latencies[count++] = latency;
      ok.incrementAndGet();
    }

    private void fail(String what) {
      failed.incrementAndGet();
      firstFailure.compareAndSet(null, what);
      if (System.nanoTime() - deadline < 0) {
        pauseAfterFailure();
      }
    }

    /** A failing service would otherwise be hammered in a tight loop of refused connections. */
    private void pauseAfterFailure() {
      java.util.concurrent.locks.LockSupport.parkNanos(50_000_000L);
    }
  }
}
