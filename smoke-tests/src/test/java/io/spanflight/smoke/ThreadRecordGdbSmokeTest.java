package io.spanflight.smoke;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.opentelemetry.proto.trace.v1.Span;
import io.spanflight.smoke.collector.OtlpCollector;
import io.spanflight.smoke.harness.AppJvm;
import io.spanflight.smoke.harness.Jdk;
import io.spanflight.smoke.outside.GdbThreadRecords;
import io.spanflight.smoke.outside.ProcessContextReader;
import io.spanflight.smoke.outside.ThreadRecord;
import io.spanflight.smoke.vthreads.VirtualThreadApp;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The OTEP-4947 thread records read from outside a running JVM by a reader we did not write: gdb
 * (Debian {@code gdb}; .ci/run installs it) attaches to the app (JDK 25, the real agent and
 * spanflight.jar) while two requests burn CPU, one on its handler thread, one on a virtual thread,
 * each in a trace the test chose. For every thread gdb evaluates the TLS pointer {@code
 * otel_thread_ctx_v1} by its dynamic symbol and reads the record's header and attributes
 * (thread_records.py), then detaches. Then:
 *
 * <ul>
 *   <li>the platform request's thread holds a valid record with that trace id, the span id of the
 *       SERVER span the agent exported for it, flags 01 (sampled, as sent), and attributes that
 *       decode against the key map of the process context (read from outside too) to the span's
 *       {@code http.route} and {@code http.request.method};
 *   <li>the carrier ({@code ForkJoinPool-*}) holds the virtual thread's span while it runs, after
 *       the virtual thread parked and another one ran and ended there (so only the mount hook
 *       can have written it);
 *   <li>every other thread holds no valid record, among them pool threads that ran a request
 *       before;
 *   <li>the app carries on after the detach (the held requests and a virtual-thread request
 *       succeed).
 * </ul>
 * Skipped, saying so, where gdb is not installed or may not attach (not root, Yama's ptrace_scope
 * above 0), except under {@code CI=true}.
 */
class ThreadRecordGdbSmokeTest extends SmokeTestBase {
  private static final String HTTP_ROUTE = "http.route";
  private static final String HTTP_METHOD = "http.request.method";

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void gdbFindsEachBurningRequestsSpanInTheRecordOfTheThreadItRunsOn(@TempDir Path dir) throws Exception {
    Path gdb = GdbThreadRecords.gdbOnPath();
    assumeTrue(gdb != null, "gdb not found on PATH: install Debian's gdb (apt-get install -y gdb;"
        + " .ci/run does) to read the thread records from outside the JVM");
    Jdk jdk = newestJdk();
    assertThat(jdk.feature()).as("virtual threads need JDK 21+").isGreaterThanOrEqualTo(21);
    String platformTrace = OutsideReads.newTraceId();
    String virtualTrace = OutsideReads.newTraceId();
    GdbThreadRecords.Reading reading;
    ProcessContextReader.Snapshot context;
    Span platformSpan;
    Span virtualSpan;
    AppJvm app;
    try (OtlpCollector collector = OtlpCollector.start()) {
      long started = System.nanoTime();
      app = app(jdk, collector, "gdb-records").mainClass(VirtualThreadApp.class)
          .jvmArg("-Djdk.virtualThreadScheduler.parallelism=1") // one carrier: see /held/virtual
          .systemProperty("otel.bsp.schedule.delay", "200") // the SERVER spans' ids, soon
          .start();
      Supplier<String> elapsed = () -> (System.nanoTime() - started) / 1_000_000 + " ms";
      System.out.println("app listening after " + elapsed.get());
      try (app) {
        URI base = app.baseUri();
        for (int i = 0; i < 4; i++) { // the pool's 4 threads each run a request: idle later, with a record
          assertThat(OutsideReads.getNow(base, "/held/platform?ms=1").statusCode()).isEqualTo(200);
        }
        CompletableFuture<HttpResponse<String>> platform =
            OutsideReads.get(base, "/held/platform?ms=60000", platformTrace);
        CompletableFuture<HttpResponse<String>> virtual =
            OutsideReads.get(base, "/held/virtual?ms=60000", virtualTrace);
        assertThat(pollUntil(() -> body(base, "/held/count").equals("2"), Duration.ofSeconds(30)))
            .as(withLog(app, "both held requests burning")).isTrue();

        System.out.println("both burning after " + elapsed.get());
        try {
          reading = GdbThreadRecords.read(gdb, app.pid(), dir);
        } catch (GdbThreadRecords.AttachRefused e) { // CI runs as root: there, no skip
          assumeTrue("true".equals(System.getenv("CI")), e.getMessage());
          throw e;
        }
        System.out.println("gdb detached after " + elapsed.get());
        context = ProcessContextReader.read(app.pid(), 3);

        assertThat(body(base, "/held/release")).isEqualTo("released");
        assertThat(platform.get(60, TimeUnit.SECONDS).statusCode()).as(withLog(app, "platform request")).isEqualTo(200);
        assertThat(virtual.get(60, TimeUnit.SECONDS).statusCode()).as(withLog(app, "virtual request")).isEqualTo(200);
        HttpResponse<String> after = OutsideReads.getNow(base, "/vt/a");
        assertThat(after.statusCode()).as(withLog(app, "a request after gdb detached: " + after.body())).isEqualTo(200);
        assertThat(collector.await(c -> OutsideReads.serverSpan(c, platformTrace).isPresent()
            && OutsideReads.serverSpan(c, virtualTrace).isPresent(), Duration.ofSeconds(30)))
            .as(withLog(app, "both SERVER spans exported; " + received(collector))).isTrue();
        System.out.println("spans exported after " + elapsed.get());
        platformSpan = OutsideReads.serverSpan(collector, platformTrace).orElseThrow();
        virtualSpan = OutsideReads.serverSpan(collector, virtualTrace).orElseThrow();
      }
    }
    String all = "gdb read " + reading.threads().size() + " of " + reading.threadCount() + " threads:\n"
        + String.join("\n", reading.threads().stream().map(ThreadRecord::toString).toList());
    System.out.println(all);
    assertThat(reading.errors()).as(all + "\n" + reading.output()).isEmpty();
    assertThat(reading.threads()).as(all).hasSize(reading.threadCount()).hasSizeGreaterThan(10);
    List<String> keyMap = OutsideReads.stringArray(context.context().getAttributesList(), "threadlocal.attribute_key_map");

    List<ThreadRecord> inPlatform = holding(reading, platformTrace);
    assertThat(inPlatform).as("threads holding the platform request's trace; " + all).hasSize(1);
    ThreadRecord handler = inPlatform.get(0);
    assertThat(handler.threadName()).as(all).doesNotStartWith("ForkJoinPool");
    assertThat(handler.spanId()).as("span id; " + all).isEqualTo(hex(platformSpan.getSpanId().toByteArray()));
    assertThat(handler.traceFlags()).as("trace flags; " + all).isEqualTo(0x01);
    assertThat(handler.attributes(keyMap)).as("attributes against key map " + keyMap + "; " + all)
        .isEqualTo(Map.of(HTTP_ROUTE, attribute(platformSpan, HTTP_ROUTE), HTTP_METHOD, attribute(platformSpan, HTTP_METHOD)))
        .containsEntry(HTTP_METHOD, "GET");

    List<ThreadRecord> inVirtual = holding(reading, virtualTrace);
    assertThat(inVirtual).as("the virtual thread's carrier shows its span; " + all)
        .anyMatch(record -> record.threadName().startsWith("ForkJoinPool"))
        .allMatch(record -> record.spanId().equals(hex(virtualSpan.getSpanId().toByteArray())))
        .allMatch(record -> record.traceFlags() == 0x01)
        .allMatch(record -> record.attributes(keyMap).equals(
            Map.of(HTTP_ROUTE, attribute(virtualSpan, HTTP_ROUTE), HTTP_METHOD, "GET")));
    // besides the carrier, only the virtual request's handler (waiting for its virtual thread) is in it
    assertThat(inVirtual).as(all).hasSizeLessThanOrEqualTo(2);

    List<ThreadRecord> others = reading.threads().stream()
        .filter(record -> !inPlatform.contains(record) && !inVirtual.contains(record)).toList();
    assertThat(others).as("idle threads hold no valid record; " + all).noneMatch(ThreadRecord::valid);
    assertThat(others).as("idle pool threads that ran a request before keep a record, not valid; " + all)
        .anyMatch(record -> record.pointer() != 0 && record.threadName().startsWith("pool-"));
  }

  private static List<ThreadRecord> holding(GdbThreadRecords.Reading reading, String traceId) {
    return reading.threads().stream().filter(ThreadRecord::valid)
        .filter(record -> record.traceId().equals(traceId)).toList();
  }

  private static String attribute(Span span, String key) {
    return OutsideReads.asMap(span.getAttributesList()).getOrDefault(key, "(not on the span)");
  }

  private static String hex(byte[] bytes) {
    return HexFormat.of().formatHex(bytes);
  }

  private static String body(URI base, String path) {
    try {
      return OutsideReads.getNow(base, path).body().trim();
    } catch (Exception e) {
      return e.toString();
    }
  }

  /** Polls {@code condition} every 50 ms until it holds or {@code timeout} passed. */
  static boolean pollUntil(Supplier<Boolean> condition, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() - deadline < 0) {
      if (condition.get()) {
        return true;
      }
      TimeUnit.MILLISECONDS.sleep(50);
    }
    return condition.get();
  }
}
