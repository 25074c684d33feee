package io.spanflight.smoke;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.spanflight.smoke.collector.OtlpCollector;
import io.spanflight.smoke.harness.AppJvm;
import io.spanflight.smoke.harness.Jdk;
import io.spanflight.smoke.harness.Jdks;
import io.spanflight.smoke.harness.LoadDriver;
import io.spanflight.smoke.profiles.CpuSamples;
import io.spanflight.smoke.profiles.SpanLink;
import io.spanflight.smoke.profiles.StackSample;
import io.spanflight.smoke.vthreads.VirtualThreadApp;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Virtual threads with the real javaagent on each JDK >= 21 under test (21 and 25: the range of
 * the mount hooks): request work runs on virtual threads that park and resume (on other carriers:
 * four carriers, four threads at a time), and
 *
 * <ul>
 *   <li>CPU samples of that work link to the SERVER span of their own request (two endpoints with
 *       distinct burn methods run concurrently, so a sample on the other request's span is seen);
 *   <li>after every resume, the carrier's OTEP-4947 record, read inside the virtual thread as an
 *       external profiler reads it, shows the request's span (the mount hook);
 *   <li>a carrier whose virtual thread parked shows no context (the unmount hook).
 * </ul>
 */
class VirtualThreadSmokeTest extends SmokeTestBase {
  static final String BURN_A = "io.spanflight.smoke.vthreads.VirtualThreadWork.burnOnVirtualThreadForA";
  static final String BURN_B = "io.spanflight.smoke.vthreads.VirtualThreadWork.burnOnVirtualThreadForB";
  static final int REQUESTS_PER_PATH = 20;
  static final int MIN_SAMPLES_PER_PATH = 40;
  private static final Pattern BODY = Pattern.compile(
      "reads=(\\d+) invalid=(\\d+) spans=([0-9a-f,]*) carriers=(\\d+) moved=(\\d+)");

  /** The JDKs under test that have virtual threads; none (no argument, a failing test) is an error. */
  static List<Jdk> jdksWithVirtualThreads() {
    return jdksUnderTest().stream().filter(jdk -> jdk.feature() >= 21).toList();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("jdksWithVirtualThreads")
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void parkedAndResumedVirtualThreadsKeepTheirSpanInSamplesAndInCarrierRecords(Jdk jdk) throws Exception {
    String helper = System.getProperty("spanflight.smoke.records.lib", "");
    assumeTrue(Files.isRegularFile(Path.of(helper)), "carrier-record reader not built: " + helper);

    List<String> bodiesA;
    List<String> bodiesB;
    String parked;
    AppJvm app;
    try (OtlpCollector collector = OtlpCollector.start()) {
      app = app(jdk, collector, "vthreads")
          .mainClass(VirtualThreadApp.class)
          .jvmArg("-Djdk.virtualThreadScheduler.parallelism=4")
          .jvmArg("-Xcheck:jni") // the hooks make JNI calls inside VirtualThread.mount/unmount
          .systemProperty("spanflight.smoke.records.lib", helper)
          .systemProperty("otel.spanflight.cpu.period", "10ms")
          .start();
      try (app) {
        String hooksOn = "virtual-thread mount hooks on";
        assertThat(app.awaitLog(hooksOn, Duration.ofSeconds(30))).as(withLog(app, "log line " + hooksOn)).isTrue();
        HttpClient client = HttpClient.newHttpClient();
        ExecutorService clients = Executors.newFixedThreadPool(4);
        try {
          List<Future<List<String>>> a = List.of(
              clients.submit(() -> get(client, app.baseUri(), "/vt/a", REQUESTS_PER_PATH / 2)),
              clients.submit(() -> get(client, app.baseUri(), "/vt/a", REQUESTS_PER_PATH / 2)));
          List<Future<List<String>>> b = List.of(
              clients.submit(() -> get(client, app.baseUri(), "/vt/b", REQUESTS_PER_PATH / 2)),
              clients.submit(() -> get(client, app.baseUri(), "/vt/b", REQUESTS_PER_PATH / 2)));
          bodiesA = join(a);
          bodiesB = join(b);
        } finally {
          clients.shutdownNow();
        }
        parked = get(client, app.baseUri(), "/vt/parked", 1).get(0); // alone: carriers idle
        boolean arrived = collector.await(
            c -> samples(c, BURN_A) >= MIN_SAMPLES_PER_PATH && samples(c, BURN_B) >= MIN_SAMPLES_PER_PATH,
            Duration.ofSeconds(30));
        assertThat(arrived).as(withLog(app, "burn samples of both paths should arrive; "
            + received(collector))).isTrue();
      }
      Set<SpanLink> spansA = serverSpans(collector, "/vt/a");
      Set<SpanLink> spansB = serverSpans(collector, "/vt/b");
      List<StackSample> all = CpuSamples.decodeAll(collector.profileRequests());
      double[] a = attribution(all, BURN_A, spansA, spansB, "/vt/a");
      double[] b = attribution(all, BURN_B, spansB, spansA, "/vt/b");

      long moved = sum(bodiesA, 5) + sum(bodiesB, 5);
      long reads = sum(bodiesA, 1) + sum(bodiesB, 1);
      long invalid = sum(bodiesA, 2) + sum(bodiesB, 2);
      System.out.printf(Locale.ROOT, "vthreads[%s]: %d carrier-record reads after a resume (%d"
          + " without a valid record), %d on another carrier than the previous one; parked: %s%n",
          jdk.label(), reads, invalid, moved, parked);
      assertRecordsShowed(bodiesA, spansA, "/vt/a");
      assertRecordsShowed(bodiesB, spansB, "/vt/b");
      assertThat(moved).as("resumes on another carrier (the premise of the test)").isPositive();
      assertNoJniWarnings(app);
      assertThat(parked).as(withLog(app, "/vt/parked")).contains("invalid=0").contains("shownAfterUnmount=0");

      for (double[] path : List.of(a, b)) {
        assertThat(path[1]).as(withLog(app, "share of burn samples linked to their own request"))
            .isGreaterThanOrEqualTo(99.0);
        assertThat(path[2]).as(withLog(app, "share of burn samples linked to a wrong span"))
            .isLessThanOrEqualTo(0.5);
      }
    }
  }

  /** On JDK 17 the hooks stand aside: no hook class is loaded, nothing fails, samples still link. */
  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void onJdk17NoHookClassLoads() throws Exception {
    Jdk jdk = Jdks.installed().feature(17).orElse(null);
    assumeTrue(jdk != null, "needs JDK 17");
    try (OtlpCollector collector = OtlpCollector.start()) {
      AppJvm app = app(jdk, collector, "vthreads-17").jvmArg("-Xlog:class+load=info").start();
      try (app) {
        LoadDriver.Result load = new LoadDriver(app.baseUri()).send("/burn?ms=50", 20, 2);
        assertThat(load.failed()).as(withLog(app, "requests: " + load)).isZero();
        String hooksOff = "virtual-thread mount hooks off (no virtual threads before JDK 21)";
        assertThat(app.awaitLog(hooksOff, Duration.ofSeconds(30))).as(withLog(app, "log line " + hooksOff)).isTrue();
      }
      String log = app.logText();
      assertThat(log).as("classes loaded on JDK 17")
          .doesNotContain("io.spanflight.internal.instrumentation.VirtualThreadMountInstrumentation")
          .doesNotContain("io.spanflight.internal.instrumentation.bootstrap.VirtualThreadMounts");
      String messages = log.lines().filter(line -> !line.contains("[class,load]"))
          .collect(Collectors.joining("\n"));
      assertThat(messages).as("the app's log without class loading").doesNotContain("SEVERE")
          .doesNotContain("Exception").contains(" started: timeline=");
    }
  }

  /** Prints and returns {samples, % on own path's spans, % on other spans, % unlinked}. */
  private static double[] attribution(
      List<StackSample> all, String method, Set<SpanLink> own, Set<SpanLink> other, String path) {
    long total = 0;
    long right = 0;
    long wrong = 0;
    long unlinked = 0;
    for (StackSample sample : all) {
      if (!sample.contains(method)) {
        continue;
      }
      total += sample.count();
      if (!sample.isLinked()) {
        unlinked += sample.count();
      } else if (own.contains(sample.link())) {
        right += sample.count();
      } else {
        wrong += sample.count(); // the other path's span, or a span that was never received
      }
    }
    double[] result = {total, pct(right, total), pct(wrong, total), pct(unlinked, total)};
    System.out.printf(Locale.ROOT, "vthreads %-6s samples=%d right=%.1f%% wrong=%.1f%% unlinked=%.1f%%"
        + " (%d spans, other path %d)%n", path, total, result[1], result[2], result[3], own.size(), other.size());
    return result;
  }

  /** Every read inside a request's virtual threads showed a valid record with that request's span. */
  private static void assertRecordsShowed(List<String> bodies, Set<SpanLink> spans, String path) {
    Set<String> spanIds = spans.stream().map(SpanLink::spanId).collect(Collectors.toSet());
    List<String> seen = new ArrayList<>();
    for (String body : bodies) {
      Matcher m = BODY.matcher(body);
      assertThat(m.find()).as("a " + path + " response: " + body).isTrue();
      assertThat(Integer.parseInt(m.group(1))).as("record reads in " + body).isPositive();
      assertThat(m.group(2)).as("reads without a valid record in " + body).isEqualTo("0");
      assertThat(m.group(3).split(",")).as("spans the carriers showed in " + body).hasSize(1);
      assertThat(spanIds).as("SERVER spans of " + path + " received; the carriers showed " + body)
          .contains(m.group(3));
      seen.add(m.group(3));
    }
    assertThat(seen).as("one span per request").doesNotHaveDuplicates();
  }

  private static long sum(List<String> bodies, int group) {
    long sum = 0;
    for (String body : bodies) {
      Matcher m = BODY.matcher(body);
      if (m.find()) {
        sum += Long.parseLong(m.group(group));
      }
    }
    return sum;
  }

  private static long samples(OtlpCollector collector, String method) {
    return CpuSamples.decodeAll(collector.profileRequests()).stream()
        .filter(sample -> sample.contains(method))
        .mapToLong(StackSample::count)
        .sum();
  }

  private static double pct(long part, long total) {
    return total == 0 ? 0 : 100.0 * part / total;
  }

  private static List<String> get(HttpClient client, URI base, String path, int times) throws Exception {
    List<String> bodies = new ArrayList<>();
    for (int i = 0; i < times; i++) {
      HttpResponse<String> response = client.send(
          HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(60)).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(200);
      bodies.add(response.body().trim());
    }
    return bodies;
  }

  private static List<String> join(List<Future<List<String>>> futures) throws Exception {
    List<String> bodies = new ArrayList<>();
    for (Future<List<String>> future : futures) {
      bodies.addAll(future.get(3, TimeUnit.MINUTES));
    }
    return Collections.unmodifiableList(bodies);
  }
}
