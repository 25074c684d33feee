package io.spanflight.smoke;

import static org.assertj.core.api.Assertions.assertThat;

import io.spanflight.smoke.AppControl.Spin;
import io.spanflight.smoke.app.CoexistApp;
import io.spanflight.smoke.collector.OtlpCollector;
import io.spanflight.smoke.harness.AppJvm;
import io.spanflight.smoke.harness.Jdk;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import jdk.jfr.Configuration;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import jdk.management.jfr.FlightRecorderMXBean;
import jdk.management.jfr.RecordingInfo;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Spanflight next to the user's own JFR recordings, started each way a user can: {@code
 * -XX:StartFlightRecording}, {@code jcmd JFR.start}, an in-process {@code Recording} and {@code
 * RecordingStream}, and JMX's {@code FlightRecorderMXBean} (what JDK Mission Control uses). Each
 * of their recordings asks for {@code jdk.ExecutionSample} every 10 ms, denser than our 20 ms (our
 * CPU source pinned to that event on every JDK), so JFR samples every 10 ms while it runs.
 *
 * <p>For a known busy loop, the CPU time we export stays within 10 % of what JFR sampled times the
 * period in force, before, during and after each of their recordings (the samples of a denser
 * stretch are weighed with the period in force), and within 10 % of the thread's real CPU time
 * whenever the loop had a core to itself (see {@link #checkOurCpu}); their files hold every
 * sample JFR took during them and report their own period; and
 * switching us off through our MBean leaves their recordings running, ten off/on cycles leak
 * neither threads nor native rings, and when someone closes our own recording we open a new one.
 */
class CoexistSmokeTest extends SmokeTestBase {
  static final String BURN = "io.spanflight.smoke.app.BurnWork.burnCpuInsideRequest";
  static final long SPIN_MILLIS = 3000;
  static final long OURS = 20_000_000L;
  static final long THEIRS = 10_000_000L;

  @ParameterizedTest(name = "{0}")
  @MethodSource("io.spanflight.smoke.SmokeTestBase#jdksUnderTest")
  @Timeout(value = 8, unit = TimeUnit.MINUTES)
  void ourCpuTimeStaysRightWhileUsersRecordEveryWay(Jdk jdk) throws Exception {
    Path dir = Files.createDirectories(PATHS.buildDir().resolve("coexist/" + jdk.label() + "-" + System.currentTimeMillis()));
    Map<String, Path> files = new LinkedHashMap<>();
    Map<String, Spin> theirPhases = new LinkedHashMap<>();
    List<Spin> spins = new ArrayList<>();
    Map<Long, Long> expectedPeriod = new TreeMap<>();
    Map<String, String> jcmdSettings;
    Map<String, String> jmxSettings;
    long streamSamples;
    Map<Spin, Long> reference = new LinkedHashMap<>();
    try (OtlpCollector collector = OtlpCollector.start()) {
      AppJvm app =
          executionSampler(app(jdk, collector, "coexist"))
              .mainClass(CoexistApp.class)
              .jvmArg("-XX:StartFlightRecording=name=cmdline,settings=profile")
              .start();
      try (app;
          AppControl control = new AppControl(app.baseUri(), jdk.home())) {
        files.put("-XX:StartFlightRecording", dir.resolve("cmdline.jfr"));
        theirPhases.put("-XX:StartFlightRecording", spin(control, spins, expectedPeriod, "-XX:StartFlightRecording", THEIRS));
        control.jcmd("JFR.stop", "name=cmdline", "filename=" + files.get("-XX:StartFlightRecording"));
        spin(control, spins, expectedPeriod, "before", OURS);

        control.jcmd("JFR.start", "name=jcmd", "settings=profile");
        theirPhases.put("jcmd JFR.start", spin(control, spins, expectedPeriod, "jcmd JFR.start", THEIRS));
        control.jcmd("JFR.dump", "name=jcmd", "filename=" + dir.resolve("jcmd-dump.jfr"));
        spin(control, spins, expectedPeriod, "jcmd, after JFR.dump", THEIRS);
        jcmdSettings = settingsOfRecordingNamed(control.flightRecorder(), "jcmd");
        files.put("jcmd JFR.start", dir.resolve("jcmd.jfr"));
        control.jcmd("JFR.stop", "name=jcmd", "filename=" + files.get("jcmd JFR.start"));
        spin(control, spins, expectedPeriod, "after jcmd", OURS);

        control.get("/user/recording/start?period=10");
        control.get("/user/stream/start?period=10");
        theirPhases.put("in-process Recording", spin(control, spins, expectedPeriod, "in-process Recording + RecordingStream", THEIRS));
        files.put("in-process Recording", dir.resolve("in-process.jfr"));
        control.get("/user/recording/stop?file=" + files.get("in-process Recording"));
        streamSamples = awaitStableStreamCount(control);
        control.get("/user/stream/stop");
        spin(control, spins, expectedPeriod, "after in-process", OURS);

        FlightRecorderMXBean jfr = control.flightRecorder();
        long id = jfr.newRecording();
        jfr.setRecordingSettings(id, Map.of("jdk.ExecutionSample#enabled", "true", "jdk.ExecutionSample#period", "10 ms"));
        jfr.startRecording(id);
        theirPhases.put("JMX FlightRecorderMXBean", spin(control, spins, expectedPeriod, "JMX FlightRecorderMXBean", THEIRS));
        jmxSettings = jfr.getRecordingSettings(id);
        System.out.println("coexist[" + jdk.label() + "] ours during JMX recording: "
            + List.of((String[]) control.spanflightAttribute("SettingsInForce")));
        jfr.stopRecording(id);
        files.put("JMX FlightRecorderMXBean", dir.resolve("jmx.jfr"));
        jfr.copyTo(id, files.get("JMX FlightRecorderMXBean").toString());
        jfr.closeRecording(id);
        spin(control, spins, expectedPeriod, "after", OURS);

        for (Spin spin : spins) {
          reference.put(spin, control.referenceSamples(spin));
        }
        awaitExported(collector, spins, reference);
      }

      List<TimedCpu> ours = TimedCpu.of(collector.profileRequests(), BURN);
      SoftAssertions soft = new SoftAssertions();
      for (Spin spin : spins) {
        checkOurCpu(soft, jdk, spin, ours, expectedPeriod.get(spin.startEpochNanos()), reference.get(spin));
      }
      for (Map.Entry<String, Path> file : files.entrySet()) {
        Spin theirs = theirPhases.get(file.getKey());
        checkTheirFile(soft, jdk, file.getKey(), file.getValue(), theirs, reference.get(theirs));
      }
      soft.assertThat(jcmdSettings).as("the jcmd recording's own settings (profile.jfc)").containsEntry("jdk.ExecutionSample#period", "10 ms");
      soft.assertThat(jmxSettings).as("the JMX recording's own settings").containsEntry("jdk.ExecutionSample#period", "10 ms");
      long jfrTook = reference.get(theirPhases.get("in-process Recording"));
      System.out.printf(Locale.ROOT, "coexist[%s] their RecordingStream: %d samples of the spin, JFR took %d%n",
          jdk.label(), streamSamples, jfrTook);
      soft.assertThat(streamSamples).as("their RecordingStream got every sample JFR took at their 10 ms")
          .isBetween((long) (0.9 * jfrTook), (long) Math.ceil(1.1 * jfrTook));
      soft.assertAll();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("io.spanflight.smoke.SmokeTestBase#jdksUnderTest")
  @Timeout(value = 8, unit = TimeUnit.MINUTES)
  void stoppingOursLeavesTheirsIntactAndOffOnCyclesLeakNothing(Jdk jdk) throws Exception {
    Path dir = Files.createDirectories(PATHS.buildDir().resolve("coexist/" + jdk.label() + "-cycles-" + System.currentTimeMillis()));
    Path theirFile = dir.resolve("theirs.jfr");
    List<Spin> spins = new ArrayList<>();
    Map<Long, Long> expectedPeriod = new TreeMap<>();
    Spin off;
    long streamDuringOff;
    List<Long> rings = new ArrayList<>();
    List<Integer> threads = new ArrayList<>();
    Map<Spin, Long> reference = new LinkedHashMap<>();
    try (OtlpCollector collector = OtlpCollector.start()) {
      AppJvm app = executionSampler(app(jdk, collector, "coexist-cycles")).mainClass(CoexistApp.class).start();
      try (app;
          AppControl control = new AppControl(app.baseUri(), jdk.home())) {
        control.get("/user/stream/start?period=10");
        control.jcmd("JFR.start", "name=theirs", "settings=profile");
        spin(control, spins, expectedPeriod, "ours on", THEIRS);

        assertThat(control.spanflight("stop")).as("stop switches us off").isTrue();
        assertThat(control.spanflight("stop")).as("a second stop does nothing").isFalse();
        awaitTrue(() -> threadsNamed(control, "spanflight").isEmpty(), "our threads end after stop: " + threadsNamed(control, "spanflight"));
        long streamBefore = awaitStableStreamCount(control);
        off = control.spin("ours off", SPIN_MILLIS);
        streamDuringOff = awaitStableStreamCount(control) - streamBefore;

        for (int cycle = 1; cycle <= 10; cycle++) {
          assertThat(control.spanflight("start")).as("start in cycle " + cycle).isTrue();
          awaitTrue(() -> threadsNamed(control, "spanflight-jfr").size() == 1, "our JFR thread runs in cycle");
          for (int request = 0; request < 5; request++) {
            control.spin("cycle", 40); // a new thread per request, which exits afterwards
          }
          assertThat(control.spanflight("stop")).as("stop in cycle " + cycle).isTrue();
          awaitTrue(() -> threadsNamed(control, "spanflight").isEmpty(), "our threads end in cycle " + cycle);
          rings.add((Long) control.spanflightAttribute("NativeRings"));
          threads.add(control.threadCount());
        }
        System.out.println("coexist[" + jdk.label() + "] after each of 10 off/on cycles: native rings " + rings + ", JVM threads " + threads);

        assertThat(control.spanflight("start")).isTrue();
        // Someone closes OUR recording (JMC lists it like any other): we open a new one.
        FlightRecorderMXBean jfr = control.flightRecorder();
        awaitTrue(() -> ourRecording(jfr) >= 0, "our recording is listed");
        long closed = ourRecording(jfr);
        jfr.closeRecording(closed);
        awaitTrue(() -> ourRecording(jfr) >= 0 && ourRecording(jfr) != closed, "we open a new recording after ours was closed");
        spin(control, spins, expectedPeriod, "ours on again, reopened", THEIRS);
        control.jcmd("JFR.stop", "name=theirs", "filename=" + theirFile);
        control.get("/user/stream/stop");
        spin(control, spins, expectedPeriod, "theirs stopped", OURS);

        assertThat(app.logText()).as("no failed background task").doesNotContain("background task");
        // our idle threads park 50 ms to 1 s at a time (park threshold 20 ms): those waits are counted, not exported
        assertThat((Long) control.spanflightAttribute("OwnThreadWaits")).as("our own threads' waits left out").isPositive();
        for (Spin spin : spins) {
          reference.put(spin, control.referenceSamples(spin));
        }
        awaitExported(collector, spins, reference);
        reference.put(off, control.referenceSamples(off));
      }

      List<TimedCpu> ours = TimedCpu.of(collector.profileRequests(), BURN);
      SoftAssertions soft = new SoftAssertions();
      for (Spin spin : spins) {
        checkOurCpu(soft, jdk, spin, ours, expectedPeriod.get(spin.startEpochNanos()), reference.get(spin));
      }
      soft.assertThat(ours.stream().filter(t -> within(t.epochNanos(), off)).count())
          .as("nothing of ours exported while off").isZero();
      long jfrTook = reference.get(off);
      System.out.printf(Locale.ROOT, "coexist[%s] their RecordingStream while we were off: %d samples of the spin, JFR took %d%n",
          jdk.label(), streamDuringOff, jfrTook);
      checkTheirFile(soft, jdk, "jcmd, while we were off", theirFile, off, jfrTook);
      soft.assertThat(jfrTook).as("JFR sampled the spin while we were off").isPositive();
      soft.assertThat(streamDuringOff).as("their RecordingStream got every sample while we were off")
          .isBetween((long) (0.9 * jfrTook), (long) Math.ceil(1.1 * jfrTook));
      soft.assertThat(rings.get(rings.size() - 1)).as("native rings after 10 cycles (50 request threads exited): " + rings)
          .isLessThanOrEqualTo(Math.max(rings.get(0), 0) + 2);
      soft.assertThat(threads.get(threads.size() - 1)).as("JVM threads after 10 cycles: " + threads)
          .isLessThanOrEqualTo(threads.get(0) + 2);
      soft.assertAll();
    }
  }

  /**
   * Waits (up to 30 s) until we exported as many samples of the last spin as JFR took; what is
   * missing after that shows in the per-phase checks.
   */
  private static void awaitExported(OtlpCollector collector, List<Spin> spins, Map<Spin, Long> reference)
      throws InterruptedException {
    Spin last = spins.get(spins.size() - 1);
    long took = reference.get(last);
    collector.await(
        col -> TimedCpu.of(col.profileRequests(), BURN).stream().filter(t -> within(t.epochNanos(), last)).count() >= took,
        Duration.ofSeconds(30));
  }

  private static Spin spin(AppControl control, List<Spin> spins, Map<Long, Long> expected, String phase, long period)
      throws Exception {
    Spin spin = control.spin(phase, SPIN_MILLIS);
    spins.add(spin);
    expected.put(spin.startEpochNanos(), period);
    return spin;
  }

  private static boolean within(long epochNanos, Spin spin) {
    return epochNanos >= spin.startEpochNanos() - 20_000_000L && epochNanos <= spin.endEpochNanos() + 20_000_000L;
  }

  /**
   * Our exported CPU for the spin, mostly at the period in force: within 10 % of what JFR sampled
   * times that period, always; within 10 % of the thread's CPU time where the loop had a core to
   * itself, on JDK 25. On a machine with more runnable threads than cores, JFR's execution sampler
   * counts time in Java code rather than CPU time and its own thread is late, so no JFR-based
   * profiler can match the thread CPU time there; the execution sampler of JDK 17 and 21 also
   * misses samples of busy compiled loops (reference/jdk-facts: ~90 % caught on mixed work, far
   * fewer in tight loops; seen here with a core: 88 % of the thread CPU on 17, 75-85 % on 21). The
   * test prints the ratio in those cases instead of checking it.
   */
  private static void checkOurCpu(SoftAssertions soft, Jdk jdk, Spin spin, List<TimedCpu> ours, long period, long jfrTook) {
    List<TimedCpu> in = ours.stream().filter(t -> within(t.epochNanos(), spin)).toList();
    long exported = in.stream().mapToLong(TimedCpu::cpuNanos).sum();
    long atPeriod = in.stream().filter(t -> t.period() == period).mapToLong(TimedCpu::cpuNanos).sum();
    long jfrCpu = jfrTook * period;
    long wall = spin.endEpochNanos() - spin.startEpochNanos();
    boolean hadACore = spin.cpuNanos() >= 0.9 * wall;
    boolean checkThreadCpu = hadACore && jdk.feature() >= 25;
    System.out.printf(Locale.ROOT,
        "coexist[%s] %-40s thread CPU %5d ms (%3.0f %% of wall), JFR took %3d samples = %5d ms at %d ms, we exported %5d ms"
            + " = %5.1f %% of JFR's, %5.1f %% of the thread CPU%s; %5.1f %% at the period in force%n",
        jdk.label(), spin.phase(), spin.cpuNanos() / 1_000_000, 100.0 * spin.cpuNanos() / wall, jfrTook, jfrCpu / 1_000_000,
        period / 1_000_000, exported / 1_000_000, jfrCpu == 0 ? 0 : 100.0 * exported / jfrCpu, 100.0 * exported / spin.cpuNanos(),
        checkThreadCpu ? "" : hadACore ? " (not checked before JDK 25: its sampler misses samples)"
            : " (not checked: the loop did not have a core)", exported == 0 ? 0 : 100.0 * atPeriod / exported);
    soft.assertThat(exported).as(spin.phase() + ": exported CPU").isPositive();
    soft.assertThat(atPeriod).as(spin.phase() + ": exported CPU at the period in force, " + period / 1_000_000 + " ms")
        .isGreaterThanOrEqualTo((long) (0.9 * exported));
    soft.assertThat(exported / (double) jfrCpu).as(spin.phase() + ": exported CPU / JFR's samples x period in force")
        .isBetween(0.9, 1.1);
    if (checkThreadCpu) {
      soft.assertThat(exported / (double) spin.cpuNanos()).as(spin.phase() + ": exported CPU / thread CPU time").isBetween(0.9, 1.1);
    }
  }

  /** Their file holds their own execution samples at their 10 ms, and which other event types. */
  private static void checkTheirFile(SoftAssertions soft, Jdk jdk, String how, Path file, Spin theirs, long jfrTook)
      throws Exception {
    List<RecordedEvent> events = RecordingFile.readAllEvents(file);
    long executionSampleId;
    try (RecordingFile recording = new RecordingFile(file)) {
      executionSampleId = recording.readEventTypes().stream()
          .filter(t -> t.getName().equals("jdk.ExecutionSample")).findFirst().orElseThrow().getId();
    }
    Set<String> types = new TreeSet<>();
    long samples = 0;
    Set<String> periodInFile = new TreeSet<>();
    for (RecordedEvent event : events) {
      String type = event.getEventType().getName();
      types.add(type);
      if (type.equals("jdk.ActiveSetting") && event.getString("name").equals("period")
          && event.getLong("id") == executionSampleId) {
        periodInFile.add(millis(event.getString("value")));
      }
      if (type.equals("jdk.ExecutionSample") && within(event.getStartTime().getEpochSecond() * 1_000_000_000L
          + event.getStartTime().getNano(), theirs) && event.getStackTrace() != null
          && event.getStackTrace().getFrames().stream().anyMatch(f -> f.getMethod().getName().equals("burnCpuInsideRequest"))) {
        samples++;
      }
    }
    System.out.printf(Locale.ROOT, "coexist[%s] their file (%s): %d samples of the spin (JFR took %d), ExecutionSample period in force %s;"
        + " event types %s%n", jdk.label(), how, samples, jfrTook, periodInFile, types);
    soft.assertThat(samples).as(how + ": their file holds every sample JFR took during their recording")
        .isBetween((long) (0.9 * jfrTook), (long) Math.ceil(1.1 * jfrTook));
    soft.assertThat(periodInFile).as(how + ": the ExecutionSample period their file reports (theirs)").containsExactly("10 ms");
    if (how.contains("StartFlightRecording") || how.contains("jcmd")) {
      Set<String> profileJfc = enabledIn(jdk.home().resolve("lib/jfr/profile.jfc"));
      Set<String> foreign = new TreeSet<>(types);
      foreign.removeAll(profileJfc);
      soft.assertThat(foreign).as(how + ": event types in their file that profile.jfc does not enable")
          .isSubsetOf(Set.of("io.spanflight.ClockCalibration"));
    }
  }

  /** A JFR duration ("10 ms" or "10000000 ns", as JFR writes either) in milliseconds, "10 ms". */
  static String millis(String jfrDuration) {
    String[] parts = jfrDuration.trim().split("\\s+");
    long value = Long.parseLong(parts[0]);
    switch (parts.length == 2 ? parts[1] : "") {
      case "ns":
        return value / 1_000_000 + " ms";
      case "us":
        return value / 1_000 + " ms";
      case "ms":
        return value + " ms";
      case "s":
        return value * 1000 + " ms";
      default:
        return jfrDuration;
    }
  }

  private static Set<String> enabledIn(Path jfc) throws Exception {
    Set<String> enabled = new TreeSet<>();
    Configuration.create(jfc).getSettings().forEach((key, value) -> {
      if (key.endsWith("#enabled") && value.equals("true")) {
        enabled.add(key.substring(0, key.indexOf('#')));
      }
    });
    return enabled;
  }

  /**
   * The id of our running recording, or -1: the one with a setting of our calibration event, which
   * JFR keys by event type id ({@code 3739#enabled}) because we enable it by class.
   */
  private static long ourRecording(FlightRecorderMXBean jfr) {
    for (RecordingInfo info : jfr.getRecordings()) {
      if (info.getState().equals("RUNNING")
          && jfr.getRecordingSettings(info.getId()).keySet().stream().anyMatch(k -> k.matches("\\d+#enabled"))) {
        return info.getId();
      }
    }
    return -1;
  }

  private static Map<String, String> settingsOfRecordingNamed(FlightRecorderMXBean jfr, String name) {
    for (RecordingInfo info : jfr.getRecordings()) {
      if (info.getName().equals(name)) {
        return jfr.getRecordingSettings(info.getId());
      }
    }
    throw new IllegalStateException("no recording named " + name);
  }

  /** Their stream delivers within about a second of a sample: waits until its count stops growing. */
  private static long awaitStableStreamCount(AppControl control) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    long last = Long.parseLong(control.get("/user/stream/count").trim());
    long stableSince = System.nanoTime();
    while (System.nanoTime() < deadline) {
      long now = Long.parseLong(control.get("/user/stream/count").trim());
      if (now != last) {
        last = now;
        stableSince = System.nanoTime();
      } else if (System.nanoTime() - stableSince > TimeUnit.MILLISECONDS.toNanos(2500)) {
        return now; // more than two of JFR's one-second flushes without a new sample
      }
      TimeUnit.MILLISECONDS.sleep(100); // poll interval, not a wait for an event
    }
    return last;
  }

  private static List<String> threadsNamed(AppControl control, String prefix) {
    try {
      return control.threadsNamed(prefix);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static void awaitTrue(BooleanSupplier condition, String what) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within 20 s: " + what);
      }
      TimeUnit.MILLISECONDS.sleep(50); // poll interval
    }
  }
}
