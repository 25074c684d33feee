package io.spanflight.benchmarks.overhead;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a JVM of a pair runs: anywhere (the default), or pinned with {@code taskset} to its own half
 * of the CPUs this harness may use ({@code --pin}), so that one JVM's GC and compiler threads
 * never run on the other's CPUs. The JVM is told the unpinned CPU count, so pinning changes where
 * its threads run, not how many GC and compiler threads it starts (a JVM that sees one CPU would
 * pick the serial collector). The load drivers (in the harness's JVM) are not pinned.
 *
 * @param prefix what goes before the {@code java} command
 * @param jvmArgs what goes right after it
 */
record Placement(List<String> prefix, List<String> jvmArgs, String describe) {
  static final Placement ANYWHERE = new Placement(List.of(), List.of(), "anywhere");

  /** The command that starts {@code java} with {@code args}, placed here. */
  List<String> command(String java, List<String> args) {
    List<String> command = new ArrayList<>(prefix);
    command.add(java);
    command.addAll(jvmArgs);
    command.addAll(args);
    return command;
  }

  /** Two placements, one per half of the CPUs this process may use: for the first and the second JVM of a pair. */
  static Placement[] halves() throws IOException {
    List<Integer> cpus = allowedCpus(Files.readAllLines(Path.of("/proc/self/status")));
    if (cpus.size() < 2) {
      throw new IllegalArgumentException("--pin needs at least 2 CPUs; this process may use " + cpus);
    }
    List<String> sameErgonomics = List.of("-XX:ActiveProcessorCount=" + cpus.size());
    int half = cpus.size() / 2;
    return new Placement[] {pinned(cpus.subList(0, half), sameErgonomics),
        pinned(cpus.subList(half, cpus.size()), sameErgonomics)};
  }

  private static Placement pinned(List<Integer> cpus, List<String> jvmArgs) {
    String list = String.join(",", cpus.stream().map(String::valueOf).toList());
    return new Placement(List.of("taskset", "-c", list), jvmArgs, "CPU " + list);
  }

  /** The CPUs in {@code Cpus_allowed_list} of a {@code /proc/<pid>/status} (e.g. {@code 0-3,8}), in order. */
  static List<Integer> allowedCpus(List<String> status) {
    for (String line : status) {
      if (line.startsWith("Cpus_allowed_list:")) {
        List<Integer> cpus = new ArrayList<>();
        for (String part : line.substring(line.indexOf(':') + 1).trim().split(",")) {
          String[] range = part.split("-");
          int from = Integer.parseInt(range[0].trim());
          int to = range.length == 1 ? from : Integer.parseInt(range[1].trim());
          for (int cpu = from; cpu <= to; cpu++) {
            cpus.add(cpu);
          }
        }
        return cpus;
      }
    }
    throw new IllegalStateException("no Cpus_allowed_list in /proc/self/status: --pin needs Linux");
  }
}
