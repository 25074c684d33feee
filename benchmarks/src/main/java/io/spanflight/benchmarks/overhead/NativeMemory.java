package io.spanflight.benchmarks.overhead;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a JVM started with {@value #FLAG} has committed per area of its Native Memory Tracking
 * summary ({@code jcmd <pid> VM.native_memory summary}): Java Heap, Class, Thread, Code, GC,
 * Tracing (JFR), Metaspace, Other, … and the total. Memory a JNI library mallocs itself (our
 * native context table) is not tracked; it shows in VmRSS minus the total.
 */
final class NativeMemory {
  static final String FLAG = "-XX:NativeMemoryTracking=summary";
  static final String TOTAL = "Total";
  private static final Pattern TOTAL_LINE = Pattern.compile("^Total: reserved=(\\d+)KB, committed=(\\d+)KB", Pattern.MULTILINE);
  private static final Pattern AREA_LINE =
      Pattern.compile("^-\\s+(\\S.*?) \\(reserved=(\\d+)KB, committed=(\\d+)KB\\)", Pattern.MULTILINE);

  private NativeMemory() {}

  /** Committed bytes per area (and {@value #TOTAL}), empty when the summary cannot be had (said on stderr). */
  static Map<String, Long> committed(long pid) {
    return Jcmd.parsed(pid, "VM.native_memory summary", NativeMemory::parse, Map.of(), "native memory summary");
  }

  /** The committed bytes of a summary's text, by area; empty if it has no total (tracking off). */
  static Map<String, Long> parse(String summary) {
    Map<String, Long> areas = new LinkedHashMap<>();
    Matcher total = TOTAL_LINE.matcher(summary);
    if (!total.find()) {
      return Map.of();
    }
    areas.put(TOTAL, Long.parseLong(total.group(2)) * 1024);
    Matcher area = AREA_LINE.matcher(summary);
    while (area.find()) {
      areas.put(area.group(1).strip(), Long.parseLong(area.group(3)) * 1024);
    }
    return areas;
  }
}
