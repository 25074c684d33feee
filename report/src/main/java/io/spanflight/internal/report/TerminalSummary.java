package io.spanflight.internal.report;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The summary printed after a report is written: what each request cost for the ten endpoints
 * with the most CPU ({@link EndpointCostTable}, the figures of the HTML report's table), then per endpoint the top three methods by CPU,
 * allocation, lock and I/O time, each measured as the self value of the leaf-most frame (where
 * the thread was when it was sampled or blocked). Empty categories are left out. CPU uses the
 * execution samples (as time, count times period) or, without them, the CPU-time samples; lock is
 * monitor contention ({@code lock_contention}); I/O is socket and file reads and writes.
 *
 * <p>Not API: internal to Spanflight.
 */
final class TerminalSummary {
  static final int TOP = 3;
  /** Endpoints in the cost block. */
  static final int TOP_ENDPOINTS = 10;
  private static final int MAX_ENDPOINT_WIDTH = 40;
  private static final int NOTE_WIDTH = 98;
  private static final ReportSampleType.Category[] CATEGORIES = {
    ReportSampleType.Category.CPU, ReportSampleType.Category.ALLOCATION,
    ReportSampleType.Category.LOCK, ReportSampleType.Category.IO
  };

  /** One line of the summary: a method and its value in the category's unit. */
  static final class Entry {
    final String method;
    final long value;

    Entry(String method, long value) {
      this.method = method;
      this.value = value;
    }
  }

  private TerminalSummary() {}

  static void print(ReportModel model, PrintStream out) {
    printCosts(model.costTable(), out);
    out.println("Top methods per endpoint (self time of the leaf-most frame):");
    for (SampleGroup endpoint : model.endpoints()) {
      out.println("  " + endpoint.name + "  (" + model.samplesOf(endpoint) + " sample(s))");
      boolean any = false;
      for (ReportSampleType.Category category : CATEGORIES) {
        List<Entry> top = top(model, endpoint, category);
        for (int i = 0; i < top.size(); i++) {
          Entry entry = top.get(i);
          out.printf(Locale.ROOT, "    %-11s %10s  %s%n", i == 0 ? category.label : "",
              format(category, entry.value), entry.method);
          any = true;
        }
      }
      if (!any) {
        out.println("    (no CPU, allocation, lock or I/O samples)");
      }
    }
  }

  /**
   * The first {@link #TOP_ENDPOINTS} rows of the cost table (the most CPU first), in aligned
   * columns, and the note on how the figures are made; nothing when no sample links to a span.
   */
  static void printCosts(EndpointCostTable table, PrintStream out) {
    if (table.rows.isEmpty()) {
      return;
    }
    List<List<String>> shown = new ArrayList<>();
    shown.add(table.header);
    shown.addAll(table.rows.subList(0, Math.min(TOP_ENDPOINTS, table.rows.size())));
    int[] widths = new int[table.header.size()];
    for (List<String> row : shown) {
      for (int c = 0; c < row.size(); c++) {
        widths[c] = Math.max(widths[c], Math.min(MAX_ENDPOINT_WIDTH, row.get(c).length()));
      }
    }
    out.println("What each request cost, per endpoint (" + Math.min(TOP_ENDPOINTS, table.rows.size()) + " of "
        + table.rows.size() + ", the most CPU first):");
    for (List<String> row : shown) {
      StringBuilder line = new StringBuilder("  ");
      for (int c = 0; c < row.size(); c++) {
        String cell = row.get(c);
        if (c == 0) {
          String name = cell.length() > MAX_ENDPOINT_WIDTH ? cell.substring(0, MAX_ENDPOINT_WIDTH - 3) + "..." : cell;
          line.append(String.format(Locale.ROOT, "%-" + widths[c] + "s", name));
        } else {
          line.append("  ").append(String.format(Locale.ROOT, "%" + widths[c] + "s", cell));
        }
      }
      out.println(line.toString().stripTrailing());
    }
    StringBuilder line = new StringBuilder();
    for (String word : EndpointCostTable.NOTE.split(" ")) {
      if (line.length() > 0 && line.length() + word.length() > NOTE_WIDTH) {
        out.println("  " + line);
        line.setLength(0);
      }
      line.append(line.length() > 0 ? " " : "").append(word);
    }
    out.println("  " + line);
  }

  /** The top methods of {@code group} in {@code category}, largest first; empty if none. */
  static List<Entry> top(ReportModel model, SampleGroup group, ReportSampleType.Category category) {
    Map<String, Long> byMethod = new HashMap<>();
    boolean cpuDone = false;
    for (Map.Entry<Integer, ReportSampleType> typeEntry : model.typesInOrder()) {
      ReportSampleType type = typeEntry.getValue();
      NodeWeights weights = group.weightsOrNull(typeEntry.getKey());
      if (type.category != category || weights == null || weights.total() == 0) {
        continue;
      }
      if (category == ReportSampleType.Category.CPU) {
        if (cpuDone) {
          continue; // execution samples and CPU-time samples measure the same CPU twice
        }
        cpuDone = true;
      }
      for (int slot = 0; slot < weights.capacity(); slot++) {
        int node = weights.nodeAt(slot);
        if (node > 0) {
          long value = category == ReportSampleType.Category.ALLOCATION
              ? weights.valueAt(slot) : nanosOrValue(type, weights.valueAt(slot));
          byMethod.merge(model.trie.frameName(node), value, Long::sum);
        }
      }
    }
    List<Entry> entries = new ArrayList<>();
    byMethod.forEach((method, value) -> entries.add(new Entry(method, value)));
    entries.sort((a, b) -> a.value != b.value ? Long.compare(b.value, a.value) : a.method.compareTo(b.method));
    return entries.subList(0, Math.min(TOP, entries.size()));
  }

  private static long nanosOrValue(ReportSampleType type, long value) {
    long nanos = type.nanos(value);
    return nanos >= 0 ? nanos : value;
  }

  static String format(ReportSampleType.Category category, long value) {
    if (category == ReportSampleType.Category.ALLOCATION) {
      if (value >= 1L << 30) {
        return String.format(Locale.ROOT, "%.2f GB", value / (double) (1L << 30));
      }
      if (value >= 1L << 20) {
        return String.format(Locale.ROOT, "%.1f MB", value / (double) (1L << 20));
      }
      return String.format(Locale.ROOT, "%.1f KB", value / 1024.0);
    }
    if (value >= 1_000_000_000L) {
      return String.format(Locale.ROOT, "%.2f s", value / 1e9);
    }
    return String.format(Locale.ROOT, "%.1f ms", value / 1e6);
  }
}
