package io.spanflight.smoke;

import static org.assertj.core.api.Assertions.assertThat;

import io.spanflight.smoke.AccuracyTable.Outcome;
import io.spanflight.smoke.app.PropagationApp;
import io.spanflight.smoke.app.propagation.NettyBurnServer;
import io.spanflight.smoke.app.propagation.RequestTag;
import io.spanflight.smoke.collector.OtlpCollector;
import io.spanflight.smoke.harness.AppJvm;
import io.spanflight.smoke.harness.Jdk;
import io.spanflight.smoke.harness.LoadDriver;
import io.spanflight.smoke.harness.TracedLoad;
import io.spanflight.smoke.profiles.CpuSamples;
import io.spanflight.smoke.profiles.SpanLink;
import io.spanflight.smoke.profiles.StackSample;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The attribution accuracy suite: for every context-propagation path, CPU burnt in a request's
 * work must be linked to that request's span, while the work of other requests runs on the same
 * threads at the same time.
 *
 * <p>{@link PropagationApp} serves one path per scenario; all spans come from the real agent
 * (SERVER spans of {@code com.sun.net.httpserver} and Netty 4.1, {@code @WithSpan} child spans).
 * The load driver sends each request with a numbered id and a fresh trace id of its own
 * ({@code traceparent}). The app writes the id into the stack of the request's work ({@link
 * RequestTag}) and burns in a method named after the span role. So each sample says, by its
 * stack alone, which request and which span it belongs to; the trace id comes from the driver,
 * the span id from the received traces (the SERVER span of that trace, or the nested child
 * span); the sample's link is only ever compared against that, never used to find it.
 *
 * <p>A path passes with at least {@value #MIN_SAMPLES} samples, {@value
 * AccuracyTable#MIN_CORRECT_PERCENT} % of them on the expected span and at most {@value
 * AccuracyTable#MAX_WRONG_PERCENT} % on a wrong one. Virtual-thread paths run on Java 21+.
 */
class AccuracySmokeTest extends SmokeTestBase {
  /** Every path: the scenario's URL path segment, the server it is on, the oldest Java it needs. */
  record PathUnderTest(String name, boolean netty, int minFeature) {}

  static final List<PathUnderTest> ALL_PATHS = List.of(
      new PathUnderTest("platform", false, 17),
      new PathUnderTest("fixed-pool", false, 17),
      new PathUnderTest("cached-pool", false, 17),
      new PathUnderTest("scheduled", false, 17),
      new PathUnderTest("forkjoin", false, 17),
      new PathUnderTest("parallel-stream", false, 17),
      new PathUnderTest("completable-future", false, 17),
      new PathUnderTest("virtual-executor", false, 21),
      new PathUnderTest("virtual-thread", false, 21),
      new PathUnderTest(NettyBurnServer.EVENT_LOOP, true, 17),
      new PathUnderTest(NettyBurnServer.EXECUTOR_GROUP, true, 17),
      new PathUnderTest("nested", false, 17));

  static final String CPU_PERIOD = "5ms";
  /** CPU per request (cut into 4 chunks by the scenarios). */
  static final long REQUEST_MILLIS = 24;
  /** Requests in flight at once per path, on scenario pools of two threads. */
  static final int CONCURRENCY = 4;
  /** Below this, 1 wrong sample in 200 is already the whole 0.5 % allowance: too little to judge. */
  static final long MIN_SAMPLES = 200;
  /**
   * Paths are driven one after the other for {@link #ROUND} each (one path at a time: with many
   * busy threads on two cores JFR's sampler thread itself starves); then, once what was sampled
   * has arrived, another round for the paths with fewer than this many samples, until {@link
   * #MAX_LOAD} has passed. Short on an idle machine, still enough samples on a busy one.
   */
  static final long TARGET_SAMPLES = 300;
  static final Duration ROUND = Duration.ofSeconds(3);
  /** The longest wait after a round for its samples (see {@link ArrivedBurnSamples#awaitQuiet}). */
  static final Duration ARRIVAL = Duration.ofSeconds(5);
  static final Duration MAX_LOAD = Duration.ofSeconds(120);

  private static final Pattern NETTY_PORT = Pattern.compile("^NETTY (\\d+)\\s*$", Pattern.MULTILINE);

  @ParameterizedTest(name = "{0}")
  @MethodSource("io.spanflight.smoke.SmokeTestBase#jdksUnderTest")
  @Timeout(value = 8, unit = TimeUnit.MINUTES)
  void everyPathLinksItsWorkToItsSpan(Jdk jdk) throws IOException {
    List<PathUnderTest> paths = ALL_PATHS.stream().filter(p -> jdk.feature() >= p.minFeature()).toList();
    Run run = run(jdk, paths, TARGET_SAMPLES, builder -> builder);
    String rendered = run.table().render(String.format(
        "Attribution accuracy on %s: CPU samples (the default CPU source, period %s) inside burn methods; %d ms of CPU per"
            + " request, %d requests in flight, paths in turn, %d s each, again while a path has"
            + " < %d samples (at most %d s)",
        jdk, CPU_PERIOD, REQUEST_MILLIS, CONCURRENCY, ROUND.toSeconds(), TARGET_SAMPLES,
        MAX_LOAD.toSeconds()));
    System.out.println(rendered);
    Path report = PATHS.buildDir().resolve("smoke-logs").resolve("accuracy-" + jdk.label() + ".txt");
    Files.createDirectories(report.getParent());
    Files.writeString(report, rendered);
    assertThat(run.table().failing()).as(withLog(run.app(), rendered + "\n" + run.received()))
        .extracting(row -> row.path)
        .isEmpty();
    checkNoLeaks(run);
  }

  /**
   * No leaks: after every task of the HTTP handler and executor pools, the thread carried no
   * context, in OpenTelemetry and in its OTEP-4947 record (read wherever the record reader was
   * built and the native bridge runs).
   */
  static void checkNoLeaks(Run run) {
    System.out.println("no-leak check: " + run.leaks());
    Matcher m = LEAKS.matcher(run.leaks());
    assertThat(m.find()).as("leak report: " + run.leaks()).isTrue();
    assertThat(Long.parseLong(m.group(1))).as("tasks checked").isGreaterThan(100);
    if (RECORDS_LIB != null) {
      assertThat(Long.parseLong(m.group(2))).as("records read (native bridge, reader built)").isGreaterThan(100);
    }
    assertThat(Long.parseLong(m.group(3))).as("threads left with a context: " + run.leaks()).isZero();
  }

  private static final Pattern LEAKS = Pattern.compile("checked=(\\d+) records=(\\d+) leaks=(\\d+)");
  /** The test-only record reader, when the build made it (gcc present). */
  private static final String RECORDS_LIB = recordsLib();

  private static String recordsLib() {
    String lib = System.getProperty("spanflight.smoke.records.lib", "");
    return !lib.isEmpty() && Files.isRegularFile(Path.of(lib)) ? lib : null;
  }

  /**
   * The judge itself: with samples linked to the local-root span (Grafana mode), work of the
   * nested child spans lands on the SERVER span, and the table must call that wrong.
   */
  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void linksToTheLocalRootAreJudgedWrongForNestedWork() {
    Jdk jdk = newestJdk();
    PathUnderTest nested = ALL_PATHS.stream().filter(p -> p.name().equals("nested")).findFirst().orElseThrow();
    Run run = run(jdk, List.of(nested), MIN_SAMPLES / 2,
        builder -> builder.systemProperty("otel.spanflight.link.local.root", "true"));
    AccuracyTable.Row row = run.table().row("nested");
    String rendered = run.table().render("Control: nested work with samples linked to the local root"
        + " (otel.spanflight.link.local.root=true) on " + jdk + "; this table must say FAIL, all wrong");
    System.out.println(rendered);
    assertThat(row.samples).as(withLog(run.app(), rendered)).isGreaterThanOrEqualTo(MIN_SAMPLES / 2);
    assertThat(row.percent(Outcome.WRONG)).as(withLog(run.app(), rendered)).isGreaterThan(95.0);
    assertThat(row.misses.keySet()).as(rendered)
        .allMatch(miss -> miss.startsWith("wrong: linked to GET / (SERVER) of its own trace"));
  }

  /**
   * JFR's execution sampler ({@code jdk.ExecutionSample}, the CPU source before JDK 25 and where
   * it is switched on) on the newest JDK, where the default CPU source is the CPU-time sampler:
   * every path judged as above. (On a JDK before 25 the default run above is this one.)
   */
  @Test
  @Timeout(value = 8, unit = TimeUnit.MINUTES)
  void everyPathLinksItsWorkToItsSpanWithTheExecutionSampler() throws IOException {
    Jdk jdk = newestJdk();
    List<PathUnderTest> paths = ALL_PATHS.stream().filter(p -> jdk.feature() >= p.minFeature()).toList();
    Run run = run(jdk, paths, TARGET_SAMPLES, SmokeTestBase::executionSampler);
    String rendered = run.table().render("Attribution accuracy on " + jdk + " with JFR's execution sampler"
        + " (otel.spanflight.cpu.enabled=true, otel.spanflight.cputime.enabled=false), period " + CPU_PERIOD);
    System.out.println(rendered);
    assertThat(run.table().failing()).as(withLog(run.app(), rendered + "\n" + run.received()))
        .extracting(row -> row.path)
        .isEmpty();
  }

  /**
   * Forced JDK reader ({@code otel.spanflight.jfr.reader=jdk}): every path through the JDK's event
   * stream instead of Spanflight's chunk reader, judged as above, on the newest JDK.
   */
  @Test
  @Timeout(value = 8, unit = TimeUnit.MINUTES)
  void everyPathLinksItsWorkToItsSpanThroughTheJdksReader() throws IOException {
    Jdk jdk = newestJdk();
    List<PathUnderTest> paths = ALL_PATHS.stream().filter(p -> jdk.feature() >= p.minFeature()).toList();
    Run run = run(jdk, paths, TARGET_SAMPLES, builder -> builder.systemProperty("otel.spanflight.jfr.reader", "jdk"));
    String rendered = run.table().render("Attribution accuracy on " + jdk + " read by the JDK's event stream"
        + " (otel.spanflight.jfr.reader=jdk)");
    System.out.println(rendered);
    assertThat(run.table().failing()).as(withLog(run.app(), rendered + "\n" + run.received()))
        .extracting(row -> row.path)
        .isEmpty();
    String log = run.app().logText();
    assertThat(log).as(withLog(run.app(), "the stop line names the reader"))
        .contains("reader=jdk (jdk, fallbacks 0)")
        .doesNotContain("cannot read what this JDK");
    assertThat(log).as(withLog(run.app(), "the configuration line names the reader")).contains("jfr.reader=jdk");
  }

  /**
   * A chunk Spanflight's reader cannot read, under a running agent, damaged by the test seam {@code
   * spanflight.test.damageChunks} in what our reader reads (the files stay as JFR wrote them):
   *
   * <ul>
   *   <li>{@code version:}{@value #DAMAGE_AFTER_SECONDS}: from then on, every chunk header it reads
   *       names format 3.0; paths are driven before the fallback (read by ours) and after;
   *   <li>{@code truncated:}{@value #DAMAGE_AFTER_SECONDS}: from then on, every chunk header it reads
   *       gives the chunk a size a megabyte past the file's end;
   *   <li>{@code metadata:0}: the first string of every metadata event is in an encoding no JDK
   *       writes, so our reader cannot read the recording's metadata at all;
   *   <li>{@code layout:0}: from the first metadata on, {@code jdk.ExecutionSample} has no field
   *       {@code sampledThread} (as from a JDK that renamed it): the plan check fails before our
   *       reader hands out any event, and the JDK's stream reads from the recording's start.
   * </ul>
   *
   * The JDK's stream takes over: one warning naming what failed, the metric {@code
   * spanflight.jfr.reader_fallbacks} = 1, and every path judged as above. (A JVM falls back once, so
   * each kind is a run of its own, about 50 s; {@code ReaderFallbackTest} runs them in-process too.)
   */
  @ParameterizedTest(name = "{0}:{1}")
  @CsvSource({
      "version, " + DAMAGE_AFTER_SECONDS + ", JFR chunk format 3.0",
      "truncated, " + DAMAGE_AFTER_SECONDS + ", chunk size",
      "metadata, 0, string encoding 6",
      "layout, 0, event jdk.ExecutionSample has no field sampledThread",
  })
  @Timeout(value = 8, unit = TimeUnit.MINUTES)
  void aChunkOurReaderCannotReadFallsBackToTheJdksStreamAndLinksStayRight(String kind, int afterSeconds,
      String failure) throws Exception {
    Jdk jdk = newestJdk();
    List<PathUnderTest> paths = ALL_PATHS.stream().filter(p -> jdk.feature() >= p.minFeature()).toList();
    try (OtlpCollector metrics = OtlpCollector.start()) {
      Run run = run(jdk, paths, TARGET_SAMPLES, builder -> executionSampler(builder)
          .systemProperty("spanflight.test.damageChunks", kind + ":" + afterSeconds)
          .systemProperty("otel.metrics.exporter", "otlp")
          .systemProperty("otel.exporter.otlp.metrics.endpoint", metrics.endpoint())
          .systemProperty("otel.metric.export.interval", "1000"));
      String rendered = run.table().render("Attribution accuracy on " + jdk + ", Spanflight's reader failing "
          + afterSeconds + " s in (" + failure + "), the JDK's stream reading on; paths in the order"
          + " driven, first driven " + run.phases());
      System.out.println(rendered);
      assertThat(run.table().failing()).as(withLog(run.app(), rendered + "\n" + run.received()))
          .extracting(row -> row.path)
          .isEmpty();
      String log = run.app().logText();
      assertThat(log).as(withLog(run.app(), "one fallback line")).containsOnlyOnce("cannot read what this JDK");
      assertThat(log).contains(failure, "Spanflight reads its recording with the JDK's event stream",
          "allocates more and costs more CPU", "reader=jdk (auto, fallbacks 1)");
      assertThat(log).as(withLog(run.app(), "no failed-read retries")).doesNotContain("could not read its JFR recording");
      if (afterSeconds > 0) {
        assertThat(run.phases().values()).as("paths first driven before and after the fallback " + run.phases())
            .contains("ours", "jdk");
      }
      assertThat(SelfMetricsSmokeTest.latestWith(metrics.metricRequests(), "spanflight.jfr.reader_fallbacks", "", null))
          .as("the self-metric").hasValue(1);
    }
  }

  static final int DAMAGE_AFTER_SECONDS = 12;

  /** What one app run left: the judged table, the app (for its log), what the collector got. */
  record Run(AccuracyTable table, AppJvm app, String received, String leaks, Map<String, String> phases) {}

  /**
   * Starts the app, drives the paths in rounds (see {@link #TARGET_SAMPLES}), stops the app,
   * judges every burn sample.
   */
  static Run run(Jdk jdk, List<PathUnderTest> paths, long targetSamples,
      UnaryOperator<AppJvm.Builder> options) {
    TracedLoad load = new TracedLoad(RequestTag.MAX_ID);
    AccuracyTable table = new AccuracyTable(paths.stream().map(PathUnderTest::name).toList(), MIN_SAMPLES);
    Map<String, String> phases = new java.util.LinkedHashMap<>();
    try (OtlpCollector collector = OtlpCollector.start()) {
      AppJvm app = options.apply(keepTagFramesReal(app(jdk, collector, "accuracy"))
          .mainClass(PropagationApp.class.getName())
          .classpath(PATHS.appDependencies())
          .systemProperty("otel.spanflight.cpu.period", CPU_PERIOD)
          .systemProperty("otel.spanflight.cputime.period", CPU_PERIOD)
          .systemProperty("otel.spanflight.export.interval", "1s")
          .systemProperty("otel.bsp.schedule.delay", "1000")
          .systemProperty("otel.bsp.max.queue.size", "16384")
          .systemProperty("spanflight.smoke.records.lib", RECORDS_LIB == null ? "" : RECORDS_LIB))
          .start();
      String leaks;
      try (app; ArrivedBurnSamples arrived = new ArrivedBurnSamples(collector, load)) {
        URI jdkServer = app.baseUri();
        URI netty = URI.create("http://127.0.0.1:" + nettyPort(app));
        long deadline = System.nanoTime() + MAX_LOAD.toNanos();
        List<PathUnderTest> pending = paths;
        while (!pending.isEmpty() && System.nanoTime() - deadline < 0) {
          for (PathUnderTest path : pending) {
            phases.putIfAbsent(path.name(), app.logText().contains("cannot read what this JDK") ? "jdk" : "ours");
            LoadDriver.Result result = load.run(path.netty() ? netty : jdkServer, "/" + path.name(),
                REQUEST_MILLIS, CONCURRENCY, ROUND);
            assertThat(result.failed()).as(withLog(app, path.name() + ": " + result)).isZero();
            table.row(path.name()).requests += result.ok();
          }
          arrived.awaitQuiet(ARRIVAL);
          pending = pending.stream().filter(p -> arrived.of("/" + p.name()) < targetSamples).toList();
        }
        leaks = get(jdkServer.resolve("/leaks"));
        // SIGTERM: the agent flushes its spans and Spanflight its last interval before exit
        app.stop();
        assertThat(app.forciblyStopped()).as(withLog(app, "had to be killed after SIGTERM")).isFalse();
      }
      judge(CpuSamples.decodeAll(collector.profileRequests()), new ExpectedSpans(collector.traceRequests()),
          load, table);
      return new Run(table, app, received(collector), leaks, phases);
    }
  }

  private static String get(URI uri) {
    try {
      return java.net.http.HttpClient.newHttpClient()
          .send(java.net.http.HttpRequest.newBuilder(uri).build(), java.net.http.HttpResponse.BodyHandlers.ofString())
          .body().trim();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * Keeps the JIT from inlining the burn and tag methods, so each is a frame of its own and a
   * sample's stack names them exactly. Inlined, the three burn methods share one compiled body in
   * {@code Role.burn}, and JFR's stack walk at a pc inside it then named the wrong one now and
   * then (seen: 2 of ~1600 samples of SERVER work reported as {@code burnInOuterSpan}). That is
   * a limit of JIT debug information, not of attribution, and it must not be counted as either.
   */
  private static AppJvm.Builder keepTagFramesReal(AppJvm.Builder builder) {
    String pkg = RequestTag.class.getPackageName();
    return builder.jvmArg("-XX:CompileCommand=quiet")
        .jvmArg("-XX:CompileCommand=dontinline," + pkg + ".RequestTag::*")
        .jvmArg("-XX:CompileCommand=dontinline," + pkg + ".Role::*")
        .jvmArg("-XX:CompileCommand=dontinline," + pkg + ".SpanWork::*");
  }

  /** Judges every sample that has a burn method on its stack. */
  private static void judge(List<StackSample> samples, ExpectedSpans expected, TracedLoad load,
      AccuracyTable table) {
    Map<String, TracedLoad.Sent> byTrace = new HashMap<>();
    load.all().forEach(sent -> byTrace.put(sent.traceId(), sent));
    for (StackSample sample : samples) {
      Optional<BurnTag> found = BurnTag.of(sample.frames());
      if (found.isEmpty()) {
        continue;
      }
      BurnTag tag = found.get();
      Optional<TracedLoad.Sent> sent = tag.decoded() ? load.sent(tag.id()) : Optional.empty();
      if (!tag.decoded()) {
        table.undecoded(sample.count(), "no request id on the stack " + sample.frames());
        continue;
      }
      if (sent.isEmpty()) {
        table.add("(unknown request)", Outcome.UNRESOLVED, sample.count(), "request id " + tag.id() + " was never sent");
        continue;
      }
      String path = sent.get().path().substring(1);
      Optional<SpanLink> span = expected.of(sent.get().traceId(), tag.role());
      if (span.isEmpty()) {
        table.add(path, Outcome.UNRESOLVED, sample.count(),
            "the " + tag.role() + " span of its trace did not arrive");
      } else if (!sample.isLinked()) {
        table.add(path, Outcome.UNLINKED, sample.count(), "on " + threadRoot(sample));
      } else if (sample.link().equals(span.get())) {
        table.add(path, Outcome.CORRECT, sample.count(), null);
      } else {
        table.add(path, Outcome.WRONG, sample.count(),
            wrongLink(sample.link(), sent.get(), expected, byTrace) + ", on " + threadRoot(sample));
      }
    }
  }

  /** What a wrong link points at, in words. */
  private static String wrongLink(SpanLink link, TracedLoad.Sent sent, ExpectedSpans expected,
      Map<String, TracedLoad.Sent> byTrace) {
    if (expected.inTrace(sent.traceId(), link)) {
      return "linked to " + expected.nameOf(link) + " of its own trace";
    }
    TracedLoad.Sent other = byTrace.get(link.traceId());
    if (other != null) {
      return "linked to " + expected.nameOf(link) + " of another request (" + other.path() + ")";
    }
    return "linked to a span not sent by the driver (" + expected.nameOf(link) + ")";
  }

  /** The two root-most frames of a sample: which kind of thread ran it. */
  private static String threadRoot(StackSample sample) {
    List<String> frames = sample.frames();
    return String.join(" <- ", frames.subList(Math.max(0, frames.size() - 2), frames.size()));
  }

  private static int nettyPort(AppJvm app) {
    Matcher m = NETTY_PORT.matcher(app.logText());
    assertThat(m.find()).as(withLog(app, "the app prints NETTY <port> before LISTENING")).isTrue();
    return Integer.parseInt(m.group(1));
  }
}
