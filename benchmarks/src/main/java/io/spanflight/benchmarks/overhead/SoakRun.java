package io.spanflight.benchmarks.overhead;

import io.spanflight.demo.load.LoadGenerator;
import io.spanflight.demo.load.LoadResult;
import io.spanflight.demo.run.ServiceJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * Soak mode: one arm under the harness load for a long time. Reports the slope of heap used after
 * each GC and of RSS (after the first minute, so start-up growth is not counted as a leak), and
 * what was lost: JFR's own {@code jdk.DataLoss} events, and Spanflight's delivery summary logged at
 * shutdown (requests produced, delivered, dropped). Spanflight's sample counters ({@code
 * spanflight.samples}) are not read: they go out as metrics, and their once-a-minute log line is
 * FINE, which the agent's logger (it takes over the extension's java.util.logging) does not print
 * without {@code otel.javaagent.debug}.
 *
 * <p>Heap after GC comes from a second JFR recording in the service JVM that enables only {@code
 * jdk.GCHeapSummary} and {@code jdk.DataLoss} (a few events per GC): cheap, but it is there.
 */
final class SoakRun {
  static final Duration SETTLE = Duration.ofSeconds(60);

  private final OverheadHarness harness;
  private final Arm arm;
  private final OverheadHarness.Options options;
  private final Sink sink;

  SoakRun(OverheadHarness harness, Arm arm, OverheadHarness.Options options, Sink sink) {
    this.harness = harness;
    this.arm = arm;
    this.options = options;
    this.sink = sink;
  }

  void run() throws Exception {
    Path dir = Files.createDirectories(options.out.resolve("soak"));
    Path jfc = dir.resolve("soak.jfc");
    Files.writeString(jfc, """
        <?xml version="1.0" encoding="UTF-8"?>
        <configuration version="2.0" label="soak">
          <event name="jdk.GCHeapSummary"><setting name="enabled">true</setting></event>
          <event name="jdk.DataLoss"><setting name="enabled">true</setting></event>
        </configuration>
        """);
    Path jfr = dir.resolve("soak.jfr");
    Files.deleteIfExists(jfr);
    Instant started = Instant.now();
    System.out.printf(Locale.ROOT, "soak: arm %s for %d s, JDK %s%n", arm.name(), options.soakSeconds, Runtime.version());
    ServiceJvm service = harness.startService(arm, List.of(
        "-XX:StartFlightRecording=settings=" + jfc + ",filename=" + jfr + ",dumponexit=true"), "soak");
    List<RssSampler.Reading> rss;
    LoadResult load;
    long cpu;
    try (service; RssSampler sampler = new RssSampler(service.pid(), 5000)) {
      LoadGenerator generator = new LoadGenerator(service.port(), OverheadHarness.ROUTES);
      long cpuBefore = ProcStats.cpuNanos(service.pid());
      load = generator.run(Duration.ofSeconds(options.soakSeconds), Duration.ofSeconds(60), p -> System.out.printf(
          Locale.ROOT, "  %4d s  %8d requests  errors %d  rss %.0f MB%n", Math.round(p.elapsedNanos() / 1e9), p.ok(),
          p.failed(), rssMb(service.pid())));
      cpu = ProcStats.cpuNanos(service.pid()) - cpuBefore;
      rss = sampler.readings();
    }
    String log = service.logText();
    String report = render(started, load, cpu, rss, jfr, lastLine(log, "Spanflight profiles export to"));
    System.out.println(report);
    Path file = options.out.resolve("soak-" + started.toString().replace(':', '-') + ".md");
    Files.writeString(file, report);
    System.out.println("written to " + file + "; service log " + service.logFile());
  }

  private String render(Instant started, LoadResult load, long cpu, List<RssSampler.Reading> rss, Path jfr,
      String spanflightCounters) throws IOException {
    List<double[]> heap = new ArrayList<>();
    long dataLossEvents = 0;
    long dataLossBytes = 0;
    long firstTick = Long.MIN_VALUE;
    for (RecordedEvent event : RecordingFile.readAllEvents(jfr)) {
      if (event.getEventType().getName().equals("jdk.GCHeapSummary") && "After GC".equals(event.getString("when"))) {
        long t = event.getStartTime().toEpochMilli();
        if (firstTick == Long.MIN_VALUE) {
          firstTick = t;
        }
        heap.add(new double[] {(t - firstTick) / 60_000.0, event.getLong("heapUsed") / 1048576.0});
      } else if (event.getEventType().getName().equals("jdk.DataLoss")) {
        dataLossEvents++;
        dataLossBytes += event.getLong("amount");
      }
    }
    double settle = SETTLE.toSeconds() / 60.0;
    List<double[]> heapAfter = heap.stream().filter(p -> p[0] >= settle).toList();
    List<RssSampler.Reading> rssAfter = rss.stream().filter(r -> r.nanos() >= SETTLE.toNanos()).toList();
    double heapSlope = Stats.slope(heapAfter.stream().mapToDouble(p -> p[0]).toArray(), heapAfter.stream().mapToDouble(p -> p[1]).toArray());
    double rssSlope = Stats.slope(rssAfter.stream().mapToDouble(r -> r.nanos() / 60e9).toArray(),
        rssAfter.stream().mapToDouble(r -> r.bytes() / 1048576.0).toArray());
    List<double[]> heapLate = heapAfter.subList(heapAfter.size() / 2, heapAfter.size());
    List<RssSampler.Reading> rssLate = rssAfter.subList(rssAfter.size() / 2, rssAfter.size());
    double heapSlopeLate = Stats.slope(heapLate.stream().mapToDouble(p -> p[0]).toArray(), heapLate.stream().mapToDouble(p -> p[1]).toArray());
    double rssSlopeLate = Stats.slope(rssLate.stream().mapToDouble(r -> r.nanos() / 60e9).toArray(),
        rssLate.stream().mapToDouble(r -> r.bytes() / 1048576.0).toArray());
    double heapFirst = heapAfter.isEmpty() ? Double.NaN : heapAfter.get(0)[1];
    double heapLast = heapAfter.isEmpty() ? Double.NaN : heapAfter.get(heapAfter.size() - 1)[1];
    double rssFirst = rssAfter.isEmpty() ? Double.NaN : rssAfter.get(0).bytes() / 1048576.0;
    double rssLast = rssAfter.isEmpty() ? Double.NaN : rssAfter.get(rssAfter.size() - 1).bytes() / 1048576.0;
    StringBuilder md = new StringBuilder();
    md.append(String.format(Locale.ROOT, "Soak, %s, arm %s (%s), %d s, JDK %s, closed loop with %d clients%n%n",
        started, arm.name(), arm.description(), options.soakSeconds, Runtime.version(),
        OverheadHarness.ROUTES.stream().mapToInt(r -> r.clients()).sum()));
    md.append("| what | value |\n|---|---|\n");
    md.append(String.format(Locale.ROOT, "| requests | %d ok, %d failed, %.1f req/s, %.3f ms CPU per request |%n",
        load.ok(), load.failed(), load.throughput(), load.ok() == 0 ? Double.NaN : cpu / 1e6 / load.ok()));
    md.append(String.format(Locale.ROOT, "| heap used after GC, after the first minute | %d GCs, %.1f MB -> %.1f MB, slope %+.3f MB/min (second half: %+.3f) |%n",
        heapAfter.size(), heapFirst, heapLast, heapSlope, heapSlopeLate));
    md.append(String.format(Locale.ROOT, "| RSS, after the first minute | %d readings, %.1f MB -> %.1f MB, slope %+.3f MB/min (second half: %+.3f) |%n",
        rssAfter.size(), rssFirst, rssLast, rssSlope, rssSlopeLate));
    md.append(String.format(Locale.ROOT, "| JFR data loss (jdk.DataLoss) | %d events, %d bytes |%n", dataLossEvents, dataLossBytes));
    md.append("| Spanflight delivery at shutdown | ").append(spanflightCounters == null ? "(none logged)" : spanflightCounters).append(" |\n");
    md.append("| received by the sink | ").append(sink.takeCounts()).append(" |\n");
    return md.toString();
  }

  private static double rssMb(long pid) {
    try {
      return ProcStats.rssBytes(pid) / 1048576.0;
    } catch (IOException e) {
      return Double.NaN;
    }
  }

  private static String lastLine(String log, String marker) {
    String found = null;
    for (String line : log.split("\\R")) {
      int at = line.indexOf(marker);
      if (at >= 0) {
        found = line.substring(at);
      }
    }
    return found;
  }
}
