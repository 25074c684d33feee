package io.spanflight.benchmarks.overhead;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The JIT compilers' counters of a running JVM ({@code jcmd <pid> PerfCounter.print}), so that the
 * harness can say what the compilers did inside the measured window: how many methods they
 * compiled, how many bytes of bytecode, how many compiled methods were thrown away (invalidated,
 * then compiled again), and for how long they compiled.
 */
final class JitCounters {
  /** What the report shows, in this order: the counter's name and what it means. */
  static final Map<String, String> SHOWN = new LinkedHashMap<>();

  static {
    SHOWN.put("sun.ci.totalCompiles", "compilations");
    SHOWN.put("sun.ci.standardBytes", "bytecode bytes compiled");
    SHOWN.put("sun.ci.totalInvalidates", "invalidated");
    SHOWN.put("sun.ci.totalBailouts", "bailouts");
    SHOWN.put("java.ci.totalTime", "compile time (ms)");
  }

  private static final String FREQUENCY = "sun.os.hrt.frequency";

  private JitCounters() {}

  /** The counters now (compile time converted to ms), empty when jcmd cannot tell (said on stderr). */
  static Map<String, Long> read(long pid) {
    return Jcmd.parsed(pid, "PerfCounter.print", JitCounters::parse, Map.of(), "JIT counters");
  }

  /** The shown counters of a {@code PerfCounter.print} text; empty if one is missing. */
  static Map<String, Long> parse(String text) {
    Map<String, Long> all = new LinkedHashMap<>();
    for (String line : text.lines().toList()) {
      int eq = line.indexOf('=');
      String name = eq > 0 ? line.substring(0, eq) : "";
      if (SHOWN.containsKey(name) || name.equals(FREQUENCY)) {
        all.put(name, Long.parseLong(line.substring(eq + 1).trim()));
      }
    }
    if (!all.keySet().containsAll(SHOWN.keySet()) || all.getOrDefault(FREQUENCY, 0L) <= 0) {
      return Map.of();
    }
    long ticksPerMilli = Math.max(1, all.remove(FREQUENCY) / 1000);
    all.computeIfPresent("java.ci.totalTime", (k, ticks) -> ticks / ticksPerMilli);
    return all;
  }

  /** {@code after - before} per counter; empty if either is. */
  static Map<String, Long> since(Map<String, Long> before, Map<String, Long> after) {
    if (before.isEmpty() || after.isEmpty()) {
      return Map.of();
    }
    Map<String, Long> delta = new LinkedHashMap<>();
    for (String name : SHOWN.keySet()) {
      delta.put(name, after.get(name) - before.get(name));
    }
    return delta;
  }
}
