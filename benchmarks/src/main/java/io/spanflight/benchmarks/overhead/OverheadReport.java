package io.spanflight.benchmarks.overhead;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/** The harness's results as Markdown tables (per-pair ratios, medians, thread groups) and as CSV. */
final class OverheadReport {
  private OverheadReport() {}

  static String render(Target target, List<Arm> arms, List<RunResult> results, OverheadHarness.Options options,
      String command, Instant started, Instant finished) {
    StringBuilder md = new StringBuilder();
    md.append(String.format(Locale.ROOT,
        "Overhead harness, %s (%d min), JDK %s, %d cores, %s, closed loop with %d keep-alive clients per JVM,"
            + " %d rounds; each pair: arm and baseline in fresh JVMs at the same time, %d s warm-up + %d s measured;"
            + " load average (1, 5, 15 min) at the end of the pairs: %s.%n%n",
        started, Duration.between(started, finished).toMinutes(), Runtime.version(),
        Runtime.getRuntime().availableProcessors(), target.describe(),
        target.routes().stream().mapToInt(r -> r.clients()).sum(), options.pairs,
        options.warmupSeconds, options.seconds,
        String.join("; ", results.stream().map(RunResult::loadAverage).distinct().toList())));
    md.append("Command: `").append(command).append("`\n\n");

    md.append("| arm | vs | CPU per request ratio | 90 % interval of its median | throughput ratio | p50 latency ratio | p99 latency ratio | mean RSS diff | peak RSS (VmHWM) diff | pairs |\n");
    md.append("|---|---|---|---|---|---|---|---|---|---|\n");
    for (Arm arm : arms) {
      List<Double> thr = new ArrayList<>();
      List<Double> p50 = new ArrayList<>();
      List<Double> p99 = new ArrayList<>();
      List<Double> cpu = new ArrayList<>();
      List<Double> rss = new ArrayList<>();
      List<Double> hwm = new ArrayList<>();
      for (RunResult[] pair : pairs(results, arm)) {
        RunResult a = pair[0];
        RunResult b = pair[1];
        thr.add(a.throughput() / b.throughput());
        p50.add((double) a.p50Nanos() / b.p50Nanos());
        p99.add((double) a.p99Nanos() / b.p99Nanos());
        cpu.add(a.cpuNanosPerRequest() / b.cpuNanosPerRequest());
        rss.add((a.meanRssBytes() - b.meanRssBytes()) / 1048576.0);
        hwm.add((a.peakRssBytes() - b.peakRssBytes()) / 1048576.0);
      }
      if (cpu.isEmpty()) {
        continue;
      }
      md.append(String.format(Locale.ROOT, "| %s | %s | **%s** | %s | %s | %s | %s | %s | %s | %d |%n", arm.name(), arm.baseline(),
          ratio(cpu), medianInterval(cpu), ratio(thr), ratio(p50), ratio(p99), megabytes(rss), megabytes(hwm), cpu.size()));
    }
    md.append("\nRatios are arm / baseline within a pair; median, with the range over the pairs in brackets."
        + " The interval of the median is distribution-free (order statistics; its exact coverage in brackets):"
        + " a target inside it is neither met nor missed by this run; fewer than 5 pairs give none."
        + " RSS differences in MB (mean of VmRSS sampled every second; VmHWM at the end of the window).\n\n");

    if (options.profile) {
      md.append("Spanflight's frames in the CPU samples of each JVM (async-profiler, ").append(CpuProfiles.EVENT)
          .append(", measured window; a sample counts when any frame of its stack is Spanflight's):\n\n");
      for (RunResult result : results) {
        md.append("- ").append(result.pair()).append(' ').append(result.arm()).append(": ")
            .append(result.profile().describe()).append('\n');
      }
      md.append('\n');
    }

    md.append("Where the CPU per request goes, arm minus baseline, ms per request (median over the pairs):\n\n");
    md.append("| arm | vs |");
    ThreadGroups.GROUPS.forEach(g -> md.append(' ').append(g).append(" |"));
    md.append(" total |\n|---|---|");
    ThreadGroups.GROUPS.forEach(g -> md.append("---|"));
    md.append("---|\n");
    for (Arm arm : arms) {
      List<RunResult[]> pairs = pairs(results, arm);
      if (pairs.isEmpty()) {
        continue;
      }
      md.append("| ").append(arm.name()).append(" | ").append(arm.baseline()).append(" |");
      for (String group : ThreadGroups.GROUPS) {
        md.append(String.format(Locale.ROOT, " %+.3f |", Stats.median(pairs.stream()
            .map(p -> groupPerRequest(p[0], group) - groupPerRequest(p[1], group)).toList())));
      }
      md.append(String.format(Locale.ROOT, " %+.3f |%n", Stats.median(pairs.stream()
          .map(p -> (p[0].cpuNanosPerRequest() - p[1].cpuNanosPerRequest()) / 1e6).toList())));
    }
    md.append("\nGroups by thread name (`/proc/<pid>/task/*/stat`): gc = G1's threads, jit = C1/C2 compilers,"
        + " jfr = JFR's own threads, spanflight = Spanflight's threads, agent = the agent's exporters,"
        + " ended = threads that ended inside the window.\n\n");

    md.append("Where the RSS goes at the end of the window, arm minus baseline, MB (median [min–max] over the pairs):\n\n");
    md.append("| arm | vs | RSS | Java heap resident | the rest | Java heap used | live after a full GC |\n|---|---|---|---|---|---|---|\n");
    for (Arm arm : arms) {
      List<RunResult[]> split = pairs(results, arm).stream().filter(p -> p[0].heap().known() && p[1].heap().known()).toList();
      if (split.isEmpty()) {
        continue;
      }
      List<RunResult[]> live = split.stream().filter(p -> p[0].heap().liveBytes() >= 0 && p[1].heap().liveBytes() >= 0).toList();
      md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s |%n", arm.name(), arm.baseline(),
          heapDiff(split, HeapResidency.Split::rssBytes), heapDiff(split, HeapResidency.Split::heapRssBytes),
          heapDiff(split, HeapResidency.Split::otherRssBytes), heapDiff(split, HeapResidency.Split::heapUsedBytes),
          live.isEmpty() ? "unknown" : heapDiff(live, HeapResidency.Split::liveBytes)));
    }
    md.append("\nJava heap resident = the resident pages inside the heap's address range (`jcmd GC.heap_info`,"
        + " `/proc/<pid>/smaps`); the rest = VmRSS minus that (JFR's buffers, native tables, metaspace, code, thread"
        + " stacks); used = what the collector reports in use at that instant (moves with the GC cycle); live = used right after a"
        + " full GC (`jcmd GC.run`, read after everything else): what the JVM holds, whatever size G1 gave the heap.\n\n");

    appendNativeMemory(md, arms, results);
    appendJit(md, arms, results);

    md.append("| arm | what | req/s | p50 ms | p99 ms | CPU ms/request | mean RSS MB | VmHWM MB | received by the sink (last pair) |\n");
    md.append("|---|---|---|---|---|---|---|---|---|\n");
    List<String> names = new ArrayList<>();
    results.forEach(r -> {
      if (!names.contains(r.arm())) {
        names.add(r.arm());
      }
    });
    for (String name : names) {
      List<RunResult> runs = results.stream().filter(r -> r.arm().equals(name)).toList();
      Optional<Arm> arm = arms.stream().filter(a -> a.name().equals(name)).findFirst();
      md.append(String.format(Locale.ROOT, "| %s | %s | %.1f | %.2f | %.2f | %.3f | %.0f | %.0f | %s |%n", name,
          arm.map(Arm::description).orElse("baseline"), median(runs, RunResult::throughput),
          median(runs, r -> r.p50Nanos() / 1e6), median(runs, r -> r.p99Nanos() / 1e6),
          median(runs, r -> r.cpuNanosPerRequest() / 1e6), median(runs, r -> r.meanRssBytes() / 1048576.0),
          median(runs, r -> r.peakRssBytes() / 1048576.0), describe(runs.get(runs.size() - 1).exported())));
    }
    md.append("\nMedians over the runs. Failed requests: ")
        .append(results.stream().mapToLong(RunResult::failed).sum()).append(".\n");
    return md.toString();
  }

  /** CPU per request of {@code arm} over its baseline in {@code pair}. */
  static double cpuRatio(List<RunResult> results, Arm arm, String pair) {
    return pairs(results, arm).stream().filter(p -> p[0].pair().equals(pair))
        .mapToDouble(p -> p[0].cpuNanosPerRequest() / p[1].cpuNanosPerRequest()).findFirst().orElse(Double.NaN);
  }

  /** The arm's runs with the baseline's run of the same pair: {arm, baseline}. */
  private static List<RunResult[]> pairs(List<RunResult> results, Arm arm) {
    List<RunResult[]> pairs = new ArrayList<>();
    for (RunResult a : results) {
      if (!a.arm().equals(arm.name())) {
        continue;
      }
      results.stream().filter(b -> b.pair().equals(a.pair()) && b.arm().equals(arm.baseline())).findFirst()
          .ifPresent(b -> pairs.add(new RunResult[] {a, b}));
    }
    return pairs;
  }

  /** What the JIT compilers did inside the window in the arm and in its baseline (medians over the pairs). */
  private static void appendJit(StringBuilder md, List<Arm> arms, List<RunResult> results) {
    StringBuilder rows = new StringBuilder();
    for (Arm arm : arms) {
      List<RunResult[]> known = pairs(results, arm).stream()
          .filter(p -> !p[0].jit().isEmpty() && !p[1].jit().isEmpty()).toList();
      if (known.isEmpty()) {
        continue;
      }
      rows.append("| ").append(arm.name()).append(" | ").append(arm.baseline()).append(" |");
      JitCounters.SHOWN.keySet().forEach(name -> rows.append(String.format(Locale.ROOT, " %.0f / %.0f |",
          Stats.median(known.stream().map(p -> (double) p[0].jit().get(name)).toList()),
          Stats.median(known.stream().map(p -> (double) p[1].jit().get(name)).toList()))));
      rows.append('\n');
    }
    if (rows.isEmpty()) {
      return;
    }
    md.append("What the JIT compilers did inside the window, arm / baseline (median over the pairs;"
        + " `jcmd <pid> PerfCounter.print` at both ends of the window):\n\n| arm | vs |");
    JitCounters.SHOWN.values().forEach(what -> md.append(' ').append(what).append(" |"));
    md.append("\n|---|---|");
    JitCounters.SHOWN.values().forEach(what -> md.append("---|"));
    md.append('\n').append(rows).append('\n');
  }

  /** Per NMT area that moved by 1 MB or more in some pair: what the arm committed beyond its baseline. */
  private static void appendNativeMemory(StringBuilder md, List<Arm> arms, List<RunResult> results) {
    StringBuilder rows = new StringBuilder();
    for (Arm arm : arms) {
      List<RunResult[]> tracked = pairs(results, arm).stream()
          .filter(p -> !p[0].nativeCommitted().isEmpty() && !p[1].nativeCommitted().isEmpty()).toList();
      List<String> areas = new ArrayList<>();
      tracked.forEach(p -> p[0].nativeCommitted().keySet().forEach(a -> {
        if (!areas.contains(a)) {
          areas.add(a);
        }
      }));
      for (String area : areas) {
        List<Double> diffs = tracked.stream().map(p -> (p[0].nativeCommitted().getOrDefault(area, 0L)
            - p[1].nativeCommitted().getOrDefault(area, 0L)) / 1048576.0).toList();
        if (area.equals(NativeMemory.TOTAL) || Stats.max(diffs) >= 1 || Stats.min(diffs) <= -1) {
          rows.append(String.format(Locale.ROOT, "| %s | %s | %s | %s |%n", arm.name(), arm.baseline(), area, megabytes(diffs)));
        }
      }
    }
    if (rows.isEmpty()) {
      return;
    }
    md.append("Native Memory Tracking at the end of the window, committed, arm minus baseline, MB (median [min–max];"
        + " areas that moved by 1 MB or more in some pair):\n\n| arm | vs | area | committed |\n|---|---|---|---|\n")
        .append(rows)
        .append("\nMemory a JNI library mallocs itself (Spanflight's native context table) is not tracked by NMT.\n\n");
  }

  private static String heapDiff(List<RunResult[]> pairs, ToLongFunction<HeapResidency.Split> bytes) {
    return megabytes(pairs.stream()
        .map(p -> (bytes.applyAsLong(p[0].heap()) - bytes.applyAsLong(p[1].heap())) / 1048576.0).toList());
  }

  private static double groupPerRequest(RunResult run, String group) {
    return run.groupCpuNanos().getOrDefault(group, 0L) / 1e6 / Math.max(1, run.requests());
  }

  static String csv(List<RunResult> results) {
    StringBuilder csv = new StringBuilder("arm,pair,requests,failed,throughput,p50_ns,p99_ns,cpu_ns_per_request,mean_rss_bytes,peak_rss_bytes,end_rss_bytes,heap_rss_bytes,heap_used_bytes,live_heap_bytes,load");
    ThreadGroups.GROUPS.forEach(g -> csv.append(",cpu_ns_").append(g));
    csv.append('\n');
    for (RunResult r : results) {
      csv.append(String.format(Locale.ROOT, "%s,%s,%d,%d,%.3f,%d,%d,%.1f,%d,%d,%d,%d,%d,%d,%s", r.arm(), r.pair(),
          r.requests(), r.failed(), r.throughput(), r.p50Nanos(), r.p99Nanos(), r.cpuNanosPerRequest(),
          r.meanRssBytes(), r.peakRssBytes(), r.heap().rssBytes(), r.heap().heapRssBytes(), r.heap().heapUsedBytes(),
          r.heap().liveBytes(), r.loadAverage()));
      ThreadGroups.GROUPS.forEach(g -> csv.append(',').append(r.groupCpuNanos().getOrDefault(g, 0L)));
      csv.append('\n');
    }
    return csv.toString();
  }

  private static double median(List<RunResult> runs, ToDoubleFunction<RunResult> value) {
    return Stats.median(runs.stream().map(r -> value.applyAsDouble(r)).toList());
  }

  private static String medianInterval(List<Double> values) {
    double[] interval = Stats.medianInterval(values, 0.9);
    return interval == null ? "too few pairs"
        : String.format(Locale.ROOT, "%.3f–%.3f (%.0f %%)", interval[0], interval[1], 100 * interval[2]);
  }

  private static String ratio(List<Double> values) {
    return String.format(Locale.ROOT, "%.3f [%.3f–%.3f]", Stats.median(values), Stats.min(values), Stats.max(values));
  }

  private static String megabytes(List<Double> values) {
    return String.format(Locale.ROOT, "%+.0f [%+.0f–%+.0f]", Stats.median(values), Stats.min(values), Stats.max(values));
  }

  private static String describe(Map<String, String> exported) {
    if (exported.isEmpty()) {
      return "nothing";
    }
    List<String> parts = new ArrayList<>();
    exported.forEach((path, what) -> parts.add("`" + path + "` " + what));
    return String.join(", ", parts);
  }
}
