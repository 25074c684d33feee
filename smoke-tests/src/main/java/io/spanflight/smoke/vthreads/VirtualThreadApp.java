package io.spanflight.smoke.vthreads;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * A tiny HTTP service (JDK {@code com.sun.net.httpserver}, a SERVER span per request from the
 * javaagent) whose requests run their work on virtual threads (JDK 21+), for the virtual-thread
 * smoke test.
 *
 * <ul>
 *   <li>{@code GET /vt/a} and {@code /vt/b}: two virtual threads each burn CPU in 8 slices of 8 ms
 *       ({@code VirtualThreadWork.burnOnVirtualThreadForA} or {@code ...ForB}), parking 1 ms
 *       between slices; after each resume they read their carrier's record. The body says what
 *       the records showed ({@link VirtualThreadWork.Observed#describe()}).
 *   <li>{@code GET /vt/parked}: eight virtual threads read their carrier's record, then park on a
 *       latch; once all are parked, the handler reads the record of every carrier they ran on
 *       (now running nothing), then releases them. The body: {@code inside: ...} and {@code
 *       shownAfterUnmount=N}, the number of those carriers whose record still showed a context.
 *   <li>{@code GET /held/platform?ms=N} burns CPU on the handler thread, {@code /held/virtual?ms=N}
 *       on one virtual thread (no parking), until {@code /held/release} or N ms (at most 60 s);
 *       {@code /held/count} says how many such burns run ({@link HeldBurns}).
 * </ul>
 *
 * <p>Carrier records are read only with {@code -Dspanflight.smoke.records.lib=<helper .so>} and
 * Spanflight's native library loaded; otherwise the bodies report {@code records=none}. Prints
 * {@code LISTENING <port>} once it accepts requests; stops on SIGTERM.
 */
public final class VirtualThreadApp {
  static final int SLICES = 8;
  static final long SLICE_MILLIS = 8;
  static final int PARKED_THREADS = 8;

  private final ExecutorService virtualThreads = newVirtualThreadPerTaskExecutor();
  private final HeldBurns held = new HeldBurns();
  private volatile Optional<CarrierRecords> records;

  private VirtualThreadApp() {}

  public static void main(String[] args) throws IOException {
    VirtualThreadApp app = new VirtualThreadApp();
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/vt/a", exchange -> app.respond(exchange, app::requestA));
    server.createContext("/vt/b", exchange -> app.respond(exchange, app::requestB));
    server.createContext("/vt/parked", exchange -> app.respond(exchange, app::parked));
    server.createContext("/held/platform", exchange -> app.respond(exchange, () -> app.heldPlatform(exchange)));
    server.createContext("/held/virtual", exchange -> app.respond(exchange, () -> app.heldVirtual(exchange)));
    server.createContext("/held/count", exchange -> app.respond(exchange, () -> String.valueOf(app.held.burning())));
    server.createContext("/held/release", exchange -> app.respond(exchange, () -> {
      app.held.releaseAll();
      return "released";
    }));
    server.setExecutor(Executors.newFixedThreadPool(4));
    server.start();
    System.out.println("LISTENING " + server.getAddress().getPort());
    System.out.flush();
  }

  /** {@code Executors.newVirtualThreadPerTaskExecutor()} (JDK 21+; this module compiles for 17). */
  private static ExecutorService newVirtualThreadPerTaskExecutor() {
    try {
      return (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("this app needs virtual threads (JDK 21 or newer)", e);
    }
  }

  /** Spanflight loads its library while the agent starts; look it up at the first request. */
  private Optional<CarrierRecords> records() {
    Optional<CarrierRecords> r = records;
    if (r == null) {
      synchronized (this) {
        if (records == null) {
          records = CarrierRecords.open();
        }
        r = records;
      }
    }
    return r;
  }

  private interface Work {
    String run() throws Exception;
  }

  private void respond(HttpExchange exchange, Work work) throws IOException {
    try {
      String text;
      int status = 200;
      try {
        text = work.run();
      } catch (Exception e) {
        status = 500;
        text = e.toString();
      }
      byte[] body = (text + "\n").getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(status, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    } finally {
      exchange.close();
    }
  }

  private String requestA() throws Exception {
    Optional<CarrierRecords> r = records();
    VirtualThreadWork.Observed observed = new VirtualThreadWork.Observed();
    runOnVirtualThreads(2, () -> VirtualThreadWork.sliceForRequestA(SLICES, SLICE_MILLIS, r, observed));
    return r.isPresent() ? observed.describe() : "records=none";
  }

  private String requestB() throws Exception {
    Optional<CarrierRecords> r = records();
    VirtualThreadWork.Observed observed = new VirtualThreadWork.Observed();
    runOnVirtualThreads(2, () -> VirtualThreadWork.sliceForRequestB(SLICES, SLICE_MILLIS, r, observed));
    return r.isPresent() ? observed.describe() : "records=none";
  }

  private String heldPlatform(HttpExchange exchange) {
    long result = held.burnUntilReleased(heldMillis(exchange));
    return "burned on " + Thread.currentThread().getName() + ": " + result;
  }

  /**
   * The burning virtual thread first parks while another virtual thread of the request runs and
   * ends (its scope's end leaves its carrier's record without context): with one carrier
   * ({@code -Djdk.virtualThreadScheduler.parallelism=1}) the burn resumes on a carrier whose record
   * only the mount hook can set to the burning thread's span again.
   */
  private String heldVirtual(HttpExchange exchange) throws Exception {
    long millis = heldMillis(exchange);
    CountDownLatch parking = new CountDownLatch(1);
    Future<String> burn = virtualThreads.submit(() -> { // the agent carries the SERVER span over
      parking.countDown();
      Thread.sleep(50); // parks: unmounts
      long result = held.burnUntilReleased(millis);
      return "burned on " + Thread.currentThread() + ": " + result;
    });
    if (!parking.await(30, TimeUnit.SECONDS)) {
      return "the burning virtual thread did not start within 30 s";
    }
    virtualThreads.submit(() -> 0L).get(30, TimeUnit.SECONDS); // another one, in and out of the span
    return burn.get(90, TimeUnit.SECONDS);
  }

  private static long heldMillis(HttpExchange exchange) {
    String query = exchange.getRequestURI().getRawQuery();
    long millis = query != null && query.startsWith("ms=") ? Long.parseLong(query.substring(3)) : 1_000;
    return Math.max(0, Math.min(60_000, millis));
  }

  private interface Slice {
    long run() throws Exception;
  }

  private void runOnVirtualThreads(int count, Slice slice) throws Exception {
    List<Future<Long>> futures = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      futures.add(virtualThreads.submit(slice::run)); // the agent carries the SERVER span over
    }
    for (Future<Long> future : futures) {
      future.get(30, TimeUnit.SECONDS);
    }
  }

  private String parked() throws Exception {
    Optional<CarrierRecords> r = records();
    if (r.isEmpty()) {
      return "records=none";
    }
    CarrierRecords reader = r.get();
    VirtualThreadWork.Observed inside = new VirtualThreadWork.Observed();
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch parking = new CountDownLatch(PARKED_THREADS);
    List<Future<Long>> futures = new ArrayList<>();
    List<Thread> threads = new CopyOnWriteArrayList<>();
    for (int i = 0; i < PARKED_THREADS; i++) {
      futures.add(virtualThreads.submit(() -> {
        VirtualThreadWork.burnBeforeParking(5); // spreads the threads over the carriers
        inside.readCarrier(reader, 0);
        threads.add(Thread.currentThread());
        parking.countDown();
        release.await(); // parks: unmounts from the carrier whose record was just read
        return 0L;
      }));
    }
    int shown;
    try {
      if (!parking.await(30, TimeUnit.SECONDS) || !allParked(threads)) {
        return "virtual threads did not park within 30 s";
      }
      shown = 0;
      for (long carrier : inside.carriers) {
        if (reader.headerAt(carrier).valid()) {
          shown++;
        }
      }
    } finally {
      release.countDown();
    }
    for (Future<Long> future : futures) {
      future.get(30, TimeUnit.SECONDS);
    }
    return "inside: " + inside.describe() + " shownAfterUnmount=" + shown;
  }

  /** Polls, until a 30 s deadline, until every thread waits (a parked virtual thread is unmounted). */
  private static boolean allParked(List<Thread> threads) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() - deadline < 0) {
      if (threads.stream().allMatch(t -> t.getState() == Thread.State.WAITING)) {
        return true;
      }
      Thread.onSpinWait();
    }
    return false;
  }
}
