package io.spanflight.benchmarks.overhead;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What Linux says about a process: CPU time from {@code /proc/<pid>/stat} (user + system, in
 * clock ticks of {@code 1/CLK_TCK} s, 100 Hz on Linux x86_64 unless the kernel says otherwise),
 * resident memory from {@code /proc/<pid>/status} ({@code VmRSS}, {@code VmHWM}).
 */
final class ProcStats {
  /** {@code getconf CLK_TCK}; Linux has exposed 100 to user space on every common platform. */
  static final long CLOCK_TICKS_PER_SECOND = 100;

  private ProcStats() {}

  /** User plus system CPU time of the whole process so far, in nanoseconds. */
  static long cpuNanos(long pid) throws IOException {
    return cpuNanosOfStat(Files.readString(Path.of("/proc", Long.toString(pid), "stat")));
  }

  /** User plus system CPU time in a {@code stat} file's text (of a process or of one task). */
  static long cpuNanosOfStat(String stat) {
    // the command name (field 2) is in parentheses and may contain spaces: count from its end
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
    long utime = Long.parseLong(fields[11]); // field 14 of proc(5)
    long stime = Long.parseLong(fields[12]); // field 15
    return (utime + stime) * (1_000_000_000L / CLOCK_TICKS_PER_SECOND);
  }

  /** The load average over 1, 5 and 15 minutes, as {@code /proc/loadavg} says it. */
  static String loadAverage() {
    try {
      String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
      return fields[0] + " " + fields[1] + " " + fields[2];
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }

  /** {@code VmRSS} in bytes. */
  static long rssBytes(long pid) throws IOException {
    return statusKb(pid, "VmRSS:") * 1024;
  }

  /** {@code VmHWM} (peak resident set) in bytes. */
  static long peakRssBytes(long pid) throws IOException {
    return statusKb(pid, "VmHWM:") * 1024;
  }

  private static long statusKb(long pid, String key) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
      if (line.startsWith(key)) {
        return Long.parseLong(line.substring(key.length()).replace("kB", "").trim());
      }
    }
    throw new IOException("no " + key + " in /proc/" + pid + "/status");
  }
}
