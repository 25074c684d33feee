package io.spanflight.demo.service;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The demo shop: a small HTTP service whose endpoints each leave a different mark in a profile.
 *
 * <p>It uses only the JDK ({@code com.sun.net.httpserver}); the OpenTelemetry javaagent creates a
 * SERVER span for every request, so everything a handler does, and the work it fans out to
 * executors, runs inside that span. There is no tracing code here.
 *
 * <ul>
 *   <li>{@code /checkout?items=N}: CPU, in {@link PriceCalculator#computePrices}
 *   <li>{@code /search?q=...}: allocation, in {@link CatalogSearch#buildResultPage}
 *   <li>{@code /inventory?sku=N}: lock contention on one shared monitor, in {@link
 *       InventoryLedger#reserveStock}
 *   <li>{@code /report}: blocking I/O: ledger files, then a slow warehouse feed on a local socket,
 *       in {@link ReportGenerator#fetchWarehouseSnapshot}
 *   <li>{@code /recommend?user=N}: fan-out to a thread pool and to virtual threads (a second pool
 *       before JDK 21), in {@link RecommendationEngine#scoreCandidates}
 * </ul>
 *
 * <p>Usage: {@code DemoService [port]} (default 0, an ephemeral port), or {@code java -jar
 * demo.jar [port]}. Prints {@code LISTENING <port>} once it accepts requests; stops on SIGTERM.
 */
public final class DemoService {
  /** Request threads: more than the cores, so that /inventory requests queue on the monitor. */
  static final int HANDLER_THREADS = 16;
  static final Duration WAREHOUSE_DELAY = Duration.ofMillis(40);

  private DemoService() {}

  public static void main(String[] args) throws IOException {
    int port = args.length > 0 ? Integer.parseInt(args[0]) : 0;
    Path ledgerDir = Files.createTempDirectory("spanflight-demo-ledger");
    WarehouseFeed warehouse = WarehouseFeed.start(WAREHOUSE_DELAY);
    RecommendationEngine recommendations = RecommendationEngine.create();
    ReportGenerator reports = ReportGenerator.create(ledgerDir, warehouse.port());
    InventoryLedger inventory = new InventoryLedger();

    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 128);
    server.createContext("/checkout", new EndpointHandler(q -> PriceCalculator.checkout(q.intParam("items", 600, 1, 100_000))));
    server.createContext("/search", new EndpointHandler(q -> CatalogSearch.search(q.param("q", "lamp"))));
    server.createContext("/inventory", new EndpointHandler(q -> inventory.reserve(q.intParam("sku", 7, 0, 1_000))));
    server.createContext("/report", new EndpointHandler(q -> reports.generate()));
    server.createContext("/recommend", new EndpointHandler(q -> recommendations.recommend(q.intParam("user", 42, 0, 1_000_000))));
    server.createContext("/", new EndpointHandler(q -> "spanflight demo: /checkout /search /inventory /report /recommend\n"));
    ExecutorService handlers = Executors.newFixedThreadPool(HANDLER_THREADS, NamedThreads.daemon("http-handler"));
    server.setExecutor(handlers);
    server.start();

    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      server.stop(0);
      handlers.shutdownNow();
      recommendations.close();
      warehouse.close();
      reports.deleteLedger();
    }, "demo-shutdown"));
    System.out.println("LISTENING " + server.getAddress().getPort());
    System.out.flush();
  }
}
