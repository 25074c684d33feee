package io.spanflight.smoke.app;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.spanflight.smoke.app.propagation.CheckedPools;
import io.spanflight.smoke.app.propagation.LeakWatch;
import io.spanflight.smoke.app.propagation.NettyBurnServer;
import io.spanflight.smoke.app.propagation.RequestParams;
import io.spanflight.smoke.app.propagation.Scenario;
import io.spanflight.smoke.app.propagation.Scenarios;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The application of the attribution accuracy suite: one HTTP path per context-propagation
 * path. {@code GET /<scenario>?id=<n>&ms=<m>} burns about {@code m} ms of CPU for request {@code
 * n} along that path (see {@link Scenarios}); the JDK's {@code com.sun.net.httpserver} serves
 * the scenarios on a pool of {@value #HANDLER_THREADS} threads, a Netty 4.1 server serves
 * {@code /netty-eventloop} and {@code /netty-executor-group} (see {@link NettyBurnServer}).
 *
 * <p>The OpenTelemetry agent opens every span (SERVER spans for both servers, {@code @WithSpan}
 * child spans) and carries context across executors; the app writes no context code except
 * {@code Context.current().wrap} for the virtual threads it starts itself (see {@code
 * VirtualThreadScenario}). {@code GET /leaks} reports the no-leak check ({@link LeakWatch}).
 *
 * <p>Prints {@code SCENARIOS <names>}, {@code NETTY <port>} and, once both servers accept
 * requests, {@code LISTENING <port>} (the JDK server) on stdout. It stops on SIGTERM.
 */
public final class PropagationApp {
  /** Handler threads of the JDK server: fewer than the requests in flight, so they take turns. */
  static final int HANDLER_THREADS = 3;

  private PropagationApp() {}

  public static void main(String[] args) throws IOException, InterruptedException {
    Scenarios scenarios = Scenarios.forThisJvm();
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", exchange -> handle(exchange, scenarios));
    ExecutorService handlers = CheckedPools.fixed(HANDLER_THREADS, "http-handler");
    server.setExecutor(handlers);
    server.start();
    int nettyPort = NettyBurnServer.start();
    System.out.println("SCENARIOS " + String.join(",", scenarios.names()));
    System.out.println("NETTY " + nettyPort);
    System.out.println("LISTENING " + server.getAddress().getPort());
    System.out.flush();
  }

  private static void handle(HttpExchange exchange, Scenarios scenarios) throws IOException {
    try (exchange) {
      String name = exchange.getRequestURI().getPath().substring(1);
      Optional<Scenario> scenario = scenarios.byName(name);
      int status;
      String body;
      if (name.equals("leaks")) {
        status = 200;
        body = LeakWatch.report();
      } else if (scenario.isEmpty()) {
        status = 404;
        body = "no scenario " + name + "; this JVM has " + scenarios.names();
      } else {
        try {
          RequestParams params = RequestParams.parse(exchange.getRequestURI().getRawQuery());
          body = "ok " + scenario.get().handle(params.id(), params.millis());
          status = 200;
        } catch (Exception e) { // a bad query, or the scenario failed: the client sees why
          status = e instanceof IllegalArgumentException ? 400 : 500;
          body = e.toString();
        }
      }
      byte[] bytes = (body + "\n").getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(status, bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    }
  }
}
