package io.spanflight.benchmarks.overhead;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/** The harness's results as Markdown tables (per-pair ratios, medians) and as CSV. */
final class OverheadReport {
  private OverheadReport() {}

  static String render(List<Arm> arms, List<RunResult> results, OverheadHarness.Options options,
      String command, Instant started, Instant finished) {
    StringBuilder md = new StringBuilder();
    md.append(String.format(Locale.ROOT,
        "Overhead harness, %s (%d min), JDK %s, %d cores, closed loop with %d keep-alive clients on loopback,"
            + " %d rounds, each arm %d s warm-up + %d s measured in a fresh JVM, arm order rotating per round.%n%n",
        started, Duration.between(started, finished).toMinutes(), Runtime.version(),
        Runtime.getRuntime().availableProcessors(),
        OverheadHarness.ROUTES.stream().mapToInt(r -> r.clients()).sum(), options.pairs,
        options.warmupSeconds, options.seconds));
    md.append("Command: `").append(command).append("`\n\n");

    md.append("| arm | vs | throughput ratio | p50 latency ratio | p99 latency ratio | CPU per request ratio | mean RSS diff | peak RSS (VmHWM) diff | pairs |\n");
    md.append("|---|---|---|---|---|---|---|---|---|\n");
    for (Arm arm : arms) {
      if (arm.baseline() == null || arms.stream().noneMatch(a -> a.name().equals(arm.baseline()))) {
        continue;
      }
      List<Double> thr = new ArrayList<>();
      List<Double> p50 = new ArrayList<>();
      List<Double> p99 = new ArrayList<>();
      List<Double> cpu = new ArrayList<>();
      List<Double> rss = new ArrayList<>();
      List<Double> hwm = new ArrayList<>();
      for (int round = 0; round < options.pairs; round++) {
        Optional<RunResult> a = find(results, arm.name(), round);
        Optional<RunResult> b = find(results, arm.baseline(), round);
        if (a.isEmpty() || b.isEmpty()) {
          continue;
        }
        thr.add(a.get().throughput() / b.get().throughput());
        p50.add((double) a.get().p50Nanos() / b.get().p50Nanos());
        p99.add((double) a.get().p99Nanos() / b.get().p99Nanos());
        cpu.add(a.get().cpuNanosPerRequest() / b.get().cpuNanosPerRequest());
        rss.add((a.get().meanRssBytes() - b.get().meanRssBytes()) / 1048576.0);
        hwm.add((a.get().peakRssBytes() - b.get().peakRssBytes()) / 1048576.0);
      }
      md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s | %d |%n", arm.name(), arm.baseline(),
          ratio(thr), ratio(p50), ratio(p99), ratio(cpu), megabytes(rss), megabytes(hwm), thr.size()));
    }
    md.append("\nRatios are arm / baseline within a round; median, with the range over the rounds in brackets."
        + " RSS differences in MB (mean of VmRSS sampled every second; VmHWM at the end of the window).\n\n");

    md.append("| arm | what | req/s | p50 ms | p99 ms | CPU ms/request | mean RSS MB | VmHWM MB | received by the sink (last round) |\n");
    md.append("|---|---|---|---|---|---|---|---|---|\n");
    for (Arm arm : arms) {
      List<RunResult> runs = results.stream().filter(r -> r.arm().equals(arm.name())).toList();
      if (runs.isEmpty()) {
        continue;
      }
      md.append(String.format(Locale.ROOT, "| %s | %s | %.1f | %.2f | %.2f | %.3f | %.0f | %.0f | %s |%n", arm.name(),
          arm.description(), median(runs, RunResult::throughput), median(runs, r -> r.p50Nanos() / 1e6),
          median(runs, r -> r.p99Nanos() / 1e6), median(runs, r -> r.cpuNanosPerRequest() / 1e6),
          median(runs, r -> r.meanRssBytes() / 1048576.0), median(runs, r -> r.peakRssBytes() / 1048576.0),
          describe(runs.get(runs.size() - 1).exported())));
    }
    md.append("\nMedians over the rounds. Failed requests: ")
        .append(results.stream().mapToLong(RunResult::failed).sum()).append(".\n");
    return md.toString();
  }

  static String csv(List<RunResult> results) {
    StringBuilder csv = new StringBuilder("arm,round,requests,failed,throughput,p50_ns,p99_ns,cpu_ns_per_request,mean_rss_bytes,peak_rss_bytes\n");
    for (RunResult r : results) {
      csv.append(String.format(Locale.ROOT, "%s,%d,%d,%d,%.3f,%d,%d,%.1f,%d,%d%n", r.arm(), r.round() + 1, r.requests(),
          r.failed(), r.throughput(), r.p50Nanos(), r.p99Nanos(), r.cpuNanosPerRequest(), r.meanRssBytes(), r.peakRssBytes()));
    }
    return csv.toString();
  }

  private static Optional<RunResult> find(List<RunResult> results, String arm, int round) {
    return results.stream().filter(r -> r.arm().equals(arm) && r.round() == round).findFirst();
  }

  private static double median(List<RunResult> runs, ToDoubleFunction<RunResult> value) {
    return Stats.median(runs.stream().map(r -> value.applyAsDouble(r)).toList());
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
