package io.spanflight.smoke.app.methods;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.LongConsumer;

/**
 * An HTTP service whose requests call the methods of {@link MethodWork} and measure those calls
 * themselves, for the method timing and tracing smoke tests (the OpenTelemetry javaagent makes a
 * SERVER span per request of the JDK's {@code com.sun.net.httpserver}).
 *
 * <ul>
 *   <li>{@code GET /work?calls=5&us=2000}: calls each method {@code calls} times, each call waiting
 *       about {@code us} microseconds;
 *   <li>{@code GET /probe}: calls {@link MethodWork.Probe#ping()} once;
 *   <li>{@code GET /pid}: the process id (for attaching JMX);
 *   <li>{@code GET /stats}: per method, {@code <function name> <calls> <nanoseconds>} as measured
 *       around each call by the caller.
 * </ul>
 *
 * <p>Prints {@code LISTENING <port>} on stdout once it accepts requests.
 */
public final class MethodApp {
  private static final String PREFIX = MethodWork.class.getName();
  static final Map<String, LongConsumer> METHODS = new LinkedHashMap<>();

  static {
    METHODS.put(PREFIX + "$ByClass.work", MethodWork.ByClass::work);
    METHODS.put(PREFIX + "$ByMethod.selected", MethodWork.ByMethod::selected);
    METHODS.put(PREFIX + "$ByMethod.unselected", MethodWork.ByMethod::unselected);
    METHODS.put(PREFIX + "$ByName.uniquelyNamedMethodWork", MethodWork.ByName::uniquelyNamedMethodWork);
    METHODS.put(PREFIX + "$ByAnnotation.work", MethodWork.ByAnnotation::work);
    METHODS.put(PREFIX + "$ByAnnotation.notAnnotated", MethodWork.ByAnnotation::notAnnotated);
  }

  /** Per method (in the order of METHODS): calls, nanoseconds. */
  private static final AtomicLongArray measured = new AtomicLongArray(2 * METHODS.size());

  private MethodApp() {}

  public static void main(String[] args) throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/work", exchange -> respond(exchange, work(exchange.getRequestURI().getRawQuery())));
    server.createContext("/probe", exchange -> {
      MethodWork.Probe.ping();
      respond(exchange, "pinged\n");
    });
    server.createContext("/stats", exchange -> respond(exchange, stats()));
    server.createContext("/pid", exchange -> respond(exchange, ProcessHandle.current().pid() + "\n"));
    server.setExecutor(Executors.newFixedThreadPool(2));
    server.start();
    System.out.println("LISTENING " + server.getAddress().getPort());
    System.out.flush();
  }

  private static String work(String query) {
    long calls = parameter(query, "calls", 5);
    long micros = parameter(query, "us", 2000);
    for (long i = 0; i < calls; i++) {
      int index = 0;
      for (LongConsumer method : METHODS.values()) {
        long start = System.nanoTime();
        method.accept(micros);
        long nanos = System.nanoTime() - start;
        measured.addAndGet(2 * index, 1);
        measured.addAndGet(2 * index + 1, nanos);
        index++;
      }
    }
    return "done\n";
  }

  private static String stats() {
    StringBuilder out = new StringBuilder();
    int index = 0;
    for (String name : METHODS.keySet()) {
      out.append(name).append(' ').append(measured.get(2 * index)).append(' ')
          .append(measured.get(2 * index + 1)).append('\n');
      index++;
    }
    return out.toString();
  }

  private static long parameter(String query, String name, long byDefault) {
    if (query != null) {
      for (String pair : query.split("&")) {
        if (pair.startsWith(name + "=")) {
          return Long.parseLong(pair.substring(name.length() + 1));
        }
      }
    }
    return byDefault;
  }

  private static void respond(HttpExchange exchange, String text) throws IOException {
    try {
      byte[] body = text.getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(200, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    } finally {
      exchange.close();
    }
  }
}
