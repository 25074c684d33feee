package io.spanflight.benchmarks.overhead;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * CPU per group of threads of a JVM, from {@code /proc/<pid>/task/<tid>/stat}: a {@link #snapshot}
 * before the measured window, and the {@link #since difference} after it. Threads are grouped by
 * name; CPU of threads that ended inside the window is not in any task any more and shows as
 * {@code ended} (the process total minus the groups).
 */
final class ThreadGroups {
  /** Group names in report order. */
  static final List<String> GROUPS =
      List.of("application", "gc", "jit", "jfr", "spanflight", "agent", "vm", "ended");

  private ThreadGroups() {}

  /** CPU so far (nanoseconds) and name of every live thread, by thread id; plus the process total. */
  record Snapshot(Map<String, Long> cpuByTask, Map<String, String> nameByTask, long processCpu) {}

  static Snapshot snapshot(long pid) throws IOException {
    Map<String, Long> cpu = new HashMap<>();
    Map<String, String> names = new HashMap<>();
    try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
      for (Path task : tasks) {
        String stat;
        try {
          stat = Files.readString(task.resolve("stat"));
        } catch (IOException e) {
          continue; // ended meanwhile
        }
        String id = task.getFileName().toString();
        names.put(id, stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')')));
        cpu.put(id, ProcStats.cpuNanosOfStat(stat));
      }
    }
    return new Snapshot(cpu, names, ProcStats.cpuNanos(pid));
  }

  /** CPU nanoseconds per group between {@code before} and now. */
  static Map<String, Long> since(long pid, Snapshot before) throws IOException {
    Snapshot now = snapshot(pid);
    Map<String, Long> groups = new LinkedHashMap<>();
    GROUPS.forEach(g -> groups.put(g, 0L));
    long grouped = 0;
    for (Map.Entry<String, Long> task : now.cpuByTask().entrySet()) {
      long delta = task.getValue() - before.cpuByTask().getOrDefault(task.getKey(), 0L);
      groups.merge(group(now.nameByTask().get(task.getKey())), delta, Long::sum);
      grouped += delta;
    }
    groups.put("ended", Math.max(0, now.processCpu() - before.processCpu() - grouped));
    return groups;
  }

  /**
   * CPU milliseconds between {@code before} and {@code now} of the threads in {@code group}, summed by name
   * (digits folded to {@code #}, so a pool's threads add up), highest first: which of the group's
   * threads a difference between arms comes from.
   */
  static Map<String, Long> threadsOf(String group, Snapshot before, Snapshot now) {
    Map<String, Long> byName = new HashMap<>();
    for (Map.Entry<String, Long> task : now.cpuByTask().entrySet()) {
      String name = now.nameByTask().get(task.getKey());
      if (group(name).equals(group)) {
        long delta = task.getValue() - before.cpuByTask().getOrDefault(task.getKey(), 0L);
        byName.merge(name.replaceAll("[0-9]+", "#"), delta / 1_000_000, Long::sum);
      }
    }
    Map<String, Long> sorted = new LinkedHashMap<>();
    byName.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed())
        .forEach(e -> sorted.put(e.getKey(), e.getValue()));
    return sorted;
  }

  /** The group of a thread, by the name Linux knows it by (at most 15 characters). */
  static String group(String name) {
    if (name.startsWith("GC Thread") || name.startsWith("G1 ") || name.startsWith("GC ")) {
      return "gc";
    }
    if (name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre")) {
      return "jit";
    }
    if (name.startsWith("JFR ")) {
      return "jfr";
    }
    if (name.startsWith("spanflight")) {
      return "spanflight";
    }
    if (name.startsWith("BatchSpanProces") || name.startsWith("OkHttp") || name.startsWith("otel")
        || name.startsWith("PeriodicMetric") || name.startsWith("pyroscope") || name.startsWith("splunk")) {
      return "agent";
    }
    if (name.startsWith("VM ") || name.equals("java") || name.startsWith("Service Thread")
        || name.startsWith("Monitor Deflati") || name.startsWith("Common-Cleaner") || name.startsWith("Signal Dispatch")
        || name.startsWith("Reference Handl") || name.startsWith("Finalizer") || name.startsWith("Notification Th")
        || name.startsWith("Attach Listener") || name.startsWith("Sweeper")) {
      return "vm";
    }
    return "application";
  }
}
