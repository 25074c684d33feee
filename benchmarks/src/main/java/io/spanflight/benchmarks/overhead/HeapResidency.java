package io.spanflight.benchmarks.overhead;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How much of a JVM's resident memory is its Java heap, so that an RSS difference between two arms
 * can be split into heap that G1 grew and everything else (JFR's buffers, native tables, code,
 * metaspace). The heap's address range and its used bytes come from {@code jcmd <pid>
 * GC.heap_info}; the resident bytes in that range from {@code /proc/<pid>/smaps}, read right
 * after, next to a {@code VmRSS} reading.
 */
final class HeapResidency {
  /** G1 (and the other collectors) end their first line with {@code used <n>K [<start>, <end>)}. */
  private static final Pattern HEAP = Pattern.compile("used (\\d+)K \\[0x(\\p{XDigit}+), 0x(\\p{XDigit}+)\\)");
  private static final Pattern MAPPING = Pattern.compile("^(\\p{XDigit}+)-(\\p{XDigit}+) ");

  /**
   * One reading.
   *
   * @param rssBytes {@code VmRSS} read with the split
   * @param heapRssBytes resident bytes inside the heap's reserved range
   * @param heapUsedBytes the heap's used bytes as the collector reports them
   * @param liveBytes the heap's used bytes right after a full GC, read after the others (what the
   *     application and Spanflight hold, whatever size G1 gave the heap); -1 if not read
   */
  record Split(long rssBytes, long heapRssBytes, long heapUsedBytes, long liveBytes) {
    static final Split UNKNOWN = new Split(-1, -1, -1, -1);

    Split withLiveBytes(long bytes) {
      return new Split(rssBytes, heapRssBytes, heapUsedBytes, bytes);
    }

    boolean known() {
      return heapRssBytes >= 0;
    }

    long otherRssBytes() {
      return rssBytes - heapRssBytes;
    }
  }

  private HeapResidency() {}

  /** The split for a running JVM, or {@link Split#UNKNOWN} if jcmd or /proc cannot tell (said on stderr). */
  static Split of(long pid) {
    try {
      Matcher heap = heapLine(Jcmd.run(pid, "GC.heap_info"));
      long start = Long.parseUnsignedLong(heap.group(2), 16);
      long end = Long.parseUnsignedLong(heap.group(3), 16);
      long heapRss = residentBetween(Files.readAllLines(Path.of("/proc", Long.toString(pid), "smaps")), start, end);
      return new Split(ProcStats.rssBytes(pid), heapRss, usedBytes(heap), -1);
    } catch (IOException | RuntimeException e) {
      System.err.println("heap split of pid " + pid + " unknown: " + e.getMessage());
      return Split.UNKNOWN;
    }
  }

  /**
   * The heap's used bytes right after a full GC ({@code jcmd <pid> GC.run}, then {@code
   * GC.heap_info}), or -1 if jcmd cannot tell (said on stderr). Changes what the heap holds and may
   * shrink it: read it last.
   */
  static long liveAfterFullGc(long pid) {
    return Jcmd.parsed(pid, "GC.run", ran -> Jcmd.parsed(pid, "GC.heap_info", info -> usedBytes(heapLine(info)), -1L,
        "live heap"), -1L, "full GC");
  }

  /** {@code GC.heap_info}'s line with the used bytes and the heap's range, matched by {@link #HEAP}. */
  private static Matcher heapLine(String heapInfo) {
    Matcher heap = HEAP.matcher(heapInfo);
    if (!heap.find()) {
      throw new IllegalArgumentException(
          "no heap range in GC.heap_info: " + heapInfo.strip().lines().findFirst().orElse(""));
    }
    return heap;
  }

  private static long usedBytes(Matcher heapLine) {
    return Long.parseLong(heapLine.group(1)) * 1024;
  }

  /** The {@code Rss} of the mappings of an smaps text that lie inside {@code [start, end)}, in bytes. */
  static long residentBetween(List<String> smaps, long start, long end) {
    long total = 0;
    boolean inside = false;
    for (String line : smaps) {
      Matcher mapping = MAPPING.matcher(line);
      if (mapping.find()) {
        long from = Long.parseUnsignedLong(mapping.group(1), 16);
        long to = Long.parseUnsignedLong(mapping.group(2), 16);
        inside = Long.compareUnsigned(from, start) >= 0 && Long.compareUnsigned(to, end) <= 0;
      } else if (inside && line.startsWith("Rss:")) {
        total += Long.parseLong(line.substring(4).replace("kB", "").trim()) * 1024;
      }
    }
    return total;
  }
}
