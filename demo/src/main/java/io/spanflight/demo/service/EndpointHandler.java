package io.spanflight.demo.service;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;

/**
 * Runs one endpoint: parses the query, calls the work, answers 200 with its text, 400 for a bad
 * parameter, 500 for anything else (with the exception's message, never a stack trace).
 */
final class EndpointHandler implements HttpHandler {
  /**
   * Response header: the CPU time, in nanoseconds, the handler thread spent in the endpoint's work
   * ({@code ThreadMXBean.getCurrentThreadCpuTime()} around it), to check the CPU estimates against.
   */
  static final String CPU_HEADER = "X-Handler-Cpu-Nanos";

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  /** The work behind one path. */
  @FunctionalInterface
  interface Work {
    String handle(Query query) throws IOException, InterruptedException;
  }

  private final Work work;

  EndpointHandler(Work work) {
    this.work = work;
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      drain(exchange.getRequestBody());
      int status;
      String body;
      long cpuBefore = THREADS.getCurrentThreadCpuTime();
      try {
        body = work.handle(Query.parse(exchange.getRequestURI().getRawQuery()));
        status = 200;
      } catch (IllegalArgumentException e) {
        status = 400;
        body = e.getMessage() + "\n";
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        status = 503;
        body = "interrupted\n";
      } catch (IOException | RuntimeException e) {
        status = 500;
        body = e + "\n";
      }
      long cpu = THREADS.getCurrentThreadCpuTime() - cpuBefore;
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set(CPU_HEADER, Long.toString(cpu));
      exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
      exchange.sendResponseHeaders(status, bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    }
  }

  private static void drain(InputStream in) throws IOException {
    byte[] buffer = new byte[512];
    while (in.read(buffer) >= 0) {
      // discard: the endpoints take no body
    }
  }
}
