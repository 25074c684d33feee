package io.spanflight.demo.load;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class LoadGeneratorTest {
  private HttpServer server;
  private ExecutorService executor;
  private final AtomicInteger served = new AtomicInteger();

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
    server.createContext("/ok", exchange -> answer(exchange, 200, "fine, with a body of some length\n"));
    server.createContext("/empty", exchange -> answer(exchange, 200, ""));
    server.createContext("/chunked", exchange -> {
      try (exchange) {
        served.incrementAndGet();
        exchange.sendResponseHeaders(200, 0); // length 0: the JDK's server sends the body chunked
        try (OutputStream out = exchange.getResponseBody()) {
          for (int i = 0; i < 3; i++) {
            out.write(("part " + i + " of an answer of unknown length\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
          }
        }
      }
    });
    server.createContext("/broken", exchange -> answer(exchange, 500, "no\n"));
    executor = Executors.newFixedThreadPool(4);
    server.setExecutor(executor);
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
    executor.shutdownNow();
  }

  @Test
  void countsAnswersPerEndpointOverKeepAliveConnections() throws Exception {
    LoadGenerator load = new LoadGenerator(server.getAddress().getPort(),
        List.of(new Route("/ok?x=1", 2), new Route("/empty", 1)));
    LoadResult result = load.run(Duration.ofMillis(500), Duration.ZERO, p -> {});

    assertThat(result.failed()).as(String.valueOf(result.firstFailure())).isZero();
    assertThat(result.okByEndpoint()).containsOnlyKeys("/ok", "/empty");
    assertThat(result.ok()).isEqualTo(result.okByEndpoint().values().stream().mapToLong(Long::longValue).sum())
        .isEqualTo(served.get()).isPositive();
    assertThat(result.latencyQuantileNanos(0.5)).isPositive()
        .isLessThanOrEqualTo(result.latencyQuantileNanos(0.99));
  }

  @Test
  void readsChunkedAnswers() throws Exception {
    LoadGenerator load = new LoadGenerator(server.getAddress().getPort(), List.of(new Route("/chunked", 2)));
    LoadResult result = load.run(Duration.ofMillis(500), Duration.ZERO, p -> {});

    assertThat(result.failed()).as(String.valueOf(result.firstFailure())).isZero();
    assertThat(result.ok()).isEqualTo(served.get()).isPositive();
  }

  @Test
  void countsOtherStatusesAsFailures() throws Exception {
    LoadGenerator load = new LoadGenerator(server.getAddress().getPort(), List.of(new Route("/broken", 1)));
    LoadResult result = load.run(Duration.ofMillis(300), Duration.ZERO, p -> {});

    assertThat(result.ok()).isZero();
    assertThat(result.failed()).isPositive();
    assertThat(result.firstFailure()).isEqualTo("/broken -> HTTP 500");
  }

  @Test
  void reportsProgressWhileRunning() throws Exception {
    AtomicInteger reports = new AtomicInteger();
    new LoadGenerator(server.getAddress().getPort(), List.of(new Route("/ok", 1)))
        .run(Duration.ofMillis(600), Duration.ofMillis(100), p -> reports.incrementAndGet());
    assertThat(reports.get()).isPositive();
  }

  private void answer(HttpExchange exchange, int status, String body) throws IOException {
    try (exchange) {
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      if (status == 200) {
        served.incrementAndGet();
      }
      exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    }
  }
}
