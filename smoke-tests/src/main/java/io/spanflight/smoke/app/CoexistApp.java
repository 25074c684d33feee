package io.spanflight.smoke.app;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordingStream;

/**
 * The test app for living next to a user's own JFR recordings. Every request runs on a new
 * thread, which exits afterwards (so the native rings of exited threads can be watched).
 *
 * <ul>
 *   <li>{@code GET /spin?ms=3000}: burns CPU in {@link BurnWork#burnCpuInsideRequest} and answers
 *       {@code <thread CPU ns> <start epoch ns> <end epoch ns>}: the truth to compare profiles with
 *   <li>{@code /pid}: this JVM's process id
 *   <li>{@code /user/recording/start?period=10}, {@code /user/recording/stop?file=F}: the user's
 *       own in-process {@link Recording} with only {@code jdk.ExecutionSample} at that period (ms);
 *       stop dumps it to F and closes it
 *   <li>{@code /user/stream/start?period=10}, {@code /user/stream/count}, {@code
 *       /user/stream/stop}: the user's own {@link RecordingStream} counting execution samples of
 *       {@code burnCpuInsideRequest}
 *   <li>{@code /reference?from=F&to=T}: how many execution samples of {@code burnCpuInsideRequest}
 *       with a start time in {@code [F, T]} (epoch ns) JFR took, as seen by a reference stream that
 *       runs from startup at 20 ms (no denser than Spanflight's default, so it changes nothing).
 *       On a loaded machine JFR's sampler takes fewer or more samples than the thread's CPU time
 *       would give; this count is what any JFR-based profiler could have seen.
 * </ul>
 *
 * <p>Prints {@code LISTENING <port>} once it accepts requests; stops on SIGTERM.
 */
public final class CoexistApp {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  private static Recording recording;
  private static RecordingStream stream;
  private static final AtomicLong streamSamples = new AtomicLong();
  private static final ConcurrentLinkedQueue<Long> referenceSamples = new ConcurrentLinkedQueue<>();

  private CoexistApp() {}

  public static void main(String[] args) throws IOException {
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/spin", exchange -> handle(exchange, CoexistApp::spin));
    server.createContext("/pid", exchange -> handle(exchange, q -> Long.toString(ProcessHandle.current().pid())));
    server.createContext("/user/recording/start", exchange -> handle(exchange, CoexistApp::startRecording));
    server.createContext("/user/recording/stop", exchange -> handle(exchange, CoexistApp::stopRecording));
    server.createContext("/user/stream/start", exchange -> handle(exchange, CoexistApp::startStream));
    server.createContext("/user/stream/count", exchange -> handle(exchange, q -> Long.toString(streamSamples.get())));
    server.createContext("/user/stream/stop", exchange -> handle(exchange, CoexistApp::stopStream));
    server.createContext("/reference", exchange -> handle(exchange, CoexistApp::reference));
    startReference();
    server.setExecutor(task -> new Thread(task, "request").start());
    server.start();
    System.out.println("LISTENING " + server.getAddress().getPort());
    System.out.flush();
  }

  private static String spin(Map<String, String> query) {
    long millis = Long.parseLong(query.getOrDefault("ms", "1000"));
    long cpuBefore = THREADS.getCurrentThreadCpuTime();
    long start = epochNanos();
    long result = BurnWork.burnCpuInsideRequest(millis);
    long end = epochNanos();
    long cpu = THREADS.getCurrentThreadCpuTime() - cpuBefore;
    return cpu + " " + start + " " + end + " " + (result & 1);
  }

  private static synchronized String startRecording(Map<String, String> query) {
    recording = new Recording();
    recording.setName("user-in-process");
    recording.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(Long.parseLong(query.get("period"))));
    recording.start();
    return recording.getSettings().toString();
  }

  private static synchronized String stopRecording(Map<String, String> query) throws IOException {
    recording.stop();
    recording.dump(Paths.get(query.get("file")));
    recording.close();
    recording = null;
    return "stopped";
  }

  private static synchronized String startStream(Map<String, String> query) {
    stream = new RecordingStream();
    stream.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(Long.parseLong(query.get("period"))));
    stream.onEvent(
        "jdk.ExecutionSample",
        event -> {
          if (burning(event)) {
            streamSamples.incrementAndGet();
          }
        });
    stream.startAsync();
    return "started";
  }

  private static synchronized String stopStream(Map<String, String> query) {
    stream.close();
    stream = null;
    return Long.toString(streamSamples.get());
  }

  private static void startReference() {
    RecordingStream reference = new RecordingStream();
    reference.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(20));
    reference.onEvent(
        "jdk.ExecutionSample",
        event -> {
          if (burning(event)) {
            Instant start = event.getStartTime();
            referenceSamples.add(start.getEpochSecond() * 1_000_000_000L + start.getNano());
          }
        });
    reference.startAsync();
  }

  private static String reference(Map<String, String> query) {
    long from = Long.parseLong(query.get("from"));
    long to = Long.parseLong(query.get("to"));
    return Long.toString(referenceSamples.stream().filter(t -> t >= from && t <= to).count());
  }

  private static boolean burning(jdk.jfr.consumer.RecordedEvent event) {
    return event.getStackTrace() != null
        && event.getStackTrace().getFrames().stream()
            .anyMatch(f -> f.getMethod().getName().equals("burnCpuInsideRequest"));
  }

  private static long epochNanos() {
    Instant now = Instant.now();
    return now.getEpochSecond() * 1_000_000_000L + now.getNano();
  }

  /** What an endpoint does with the query parameters. */
  private interface Endpoint {
    String answer(Map<String, String> query) throws IOException;
  }

  private static void handle(HttpExchange exchange, Endpoint endpoint) throws IOException {
    try {
      int status = 200;
      String answer;
      try {
        answer = endpoint.answer(query(exchange.getRequestURI().getRawQuery()));
      } catch (RuntimeException | IOException e) {
        status = 500;
        answer = e.toString();
      }
      byte[] body = (answer + "\n").getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(status, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    } finally {
      exchange.close();
    }
  }

  private static Map<String, String> query(String raw) {
    Map<String, String> query = new HashMap<>();
    if (raw != null) {
      for (String pair : raw.split("&")) {
        int eq = pair.indexOf('=');
        if (eq > 0) {
          query.put(pair.substring(0, eq), java.net.URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
      }
    }
    return query;
  }
}
