package io.spanflight.benchmarks.overhead;

import io.spanflight.demo.load.LoadGenerator;
import io.spanflight.demo.load.LoadResult;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * One pair: an arm and its baseline in two fresh JVMs <em>at the same time</em>, each under its own
 * closed-loop load, warmed up together and measured over the same window, so that this machine's
 * drift in speed (±15 % from minute to minute) hits both alike. The caller swaps which one starts
 * first from round to round.
 */
final class PairRun {
  private final Target target;
  private final Sink sink;
  private final Duration warmup;
  private final Duration measured;
  private final Path logs;
  private final Placement[] placements;
  private final CpuProfiles profiles; // null: not profiled
  private final List<WindowRecording> recordings;
  private final ExecutorService both = Executors.newFixedThreadPool(2, r -> {
    Thread t = new Thread(r, "pair-run");
    t.setDaemon(true);
    return t;
  });

  /**
   * @param placements where the JVM started first and the one started second run
   * @param profiles the profiler loaded into both JVMs over the measured window; null: none
   * @param recordings the harness's own JFR recordings in both JVMs, each summed after the window
   */
  PairRun(Target target, Sink sink, Duration warmup, Duration measured, Path logs, Placement[] placements,
      CpuProfiles profiles, List<WindowRecording> recordings) {
    this.target = target;
    this.sink = sink;
    this.warmup = warmup;
    this.measured = measured;
    this.logs = logs;
    this.placements = placements.clone();
    this.profiles = profiles;
    this.recordings = List.copyOf(recordings);
  }

  /** Measures {@code first} and {@code second} together; results in that order. */
  List<RunResult> run(Arm first, Arm second, String pair) throws Exception {
    sink.takeCounts();
    Future<Target.Running> startingFirst = both.submit(() -> target.start(first, log(pair, first), placements[0]));
    Future<Target.Running> startingSecond = both.submit(() -> target.start(second, log(pair, second), placements[1]));
    try (Target.Running a = startingFirst.get(); Target.Running b = startingSecond.get()) {
      Future<?> warmA = both.submit(load(a, warmup));
      load(b, warmup).call();
      warmA.get();
      Future<Measured> measuringA = both.submit(() -> measure(a, first, pair));
      Measured mb = measure(b, second, pair);
      Measured ma = measuringA.get();
      String loadAverage = ProcStats.loadAverage();
      a.close();
      b.close();
      Map<String, String> exported = sink.takeCounts();
      return List.of(ma.result(first, pair, loadAverage, exported), mb.result(second, pair, loadAverage, exported));
    } catch (Exception e) {
      closeQuietly(startingFirst);
      closeQuietly(startingSecond);
      throw e;
    }
  }

  private Path log(String pair, Arm arm) {
    return logs.resolve(pair + "-" + arm.name() + ".log");
  }

  private Callable<LoadResult> load(Target.Running app, Duration duration) {
    return () -> new LoadGenerator(app.port(), target.routes()).run(duration, Duration.ZERO, p -> {});
  }

  private Measured measure(Target.Running app, Arm arm, String pair) throws Exception {
    Map<String, Long> jitBefore = JitCounters.read(app.pid());
    if (profiles != null) {
      profiles.start(app.pid());
    }
    ThreadGroups.Snapshot before = ThreadGroups.snapshot(app.pid());
    Instant windowStart = Instant.now();
    try (RssSampler rss = new RssSampler(app.pid(), 1000)) {
      LoadResult load = load(app, measured).call();
      Instant windowEnd = Instant.now();
      CpuProfiles.Shares profile = profiles == null ? CpuProfiles.Shares.NONE
          : profiles.stop(app.pid(), logs.resolve(pair + "-" + arm.name() + "-cpu.collapsed"));
      long cpu = ProcStats.cpuNanos(app.pid()) - before.processCpu();
      Map<String, Long> groups = ThreadGroups.since(app.pid(), before); // before jcmd's attach adds threads' CPU
      ThreadGroups.Snapshot after = ThreadGroups.snapshot(app.pid());
      for (String group : List.of("spanflight", "agent")) {
        System.out.println("  " + arm.name() + ": " + group + " threads, CPU ms in the window: "
            + ThreadGroups.threadsOf(group, before, after));
      }
      for (WindowRecording recording : recordings) {
        Path file = logs.resolve(pair + "-" + arm.name() + "-" + recording.getClass().getSimpleName() + ".jfr");
        System.out.println("  " + arm.name() + ": " + recording.describe(app.pid(), file, windowStart, windowEnd, load.ok()));
      }
      Map<String, Long> jit = JitCounters.since(jitBefore, JitCounters.read(app.pid()));
      long peakRss = ProcStats.peakRssBytes(app.pid());
      HeapResidency.Split heap = HeapResidency.of(app.pid());
      Map<String, Long> nativeCommitted =
          arm.jvmArgs().contains(NativeMemory.FLAG) ? NativeMemory.committed(app.pid()) : Map.of();
      heap = heap.withLiveBytes(HeapResidency.liveAfterFullGc(app.pid())); // last: the GC changes the heap
      return new Measured(load, cpu, groups, rss.meanBytes(), peakRss, heap, nativeCommitted, jit, profile);
    }
  }

  private record Measured(LoadResult load, long cpuNanos, Map<String, Long> groups, long meanRss, long peakRss,
      HeapResidency.Split heap, Map<String, Long> nativeCommitted, Map<String, Long> jit, CpuProfiles.Shares profile) {
    RunResult result(Arm arm, String pair, String loadAverage, Map<String, String> exported) {
      long ok = load.ok();
      return new RunResult(arm.name(), pair, ok, load.failed(), load.throughput(),
          load.latencyQuantileNanos(0.5), load.latencyQuantileNanos(0.99),
          ok == 0 ? Double.NaN : (double) cpuNanos / ok, meanRss, peakRss, heap, nativeCommitted, jit, groups, loadAverage,
          arm.baseline() == null ? Map.of() : exported, profile);
    }
  }

  private static void closeQuietly(Future<Target.Running> starting) {
    try {
      starting.get().close();
    } catch (Exception e) {
      // it did not start: nothing to stop
    }
  }
}
