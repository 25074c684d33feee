package io.spanflight.internal.report;

import io.spanflight.internal.format.CostKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The "what each request cost" table as text, one formatter for the HTML report and the terminal
 * summary so that both show the same figures: per endpoint the requests seen (traces with a
 * sample of it), the CPU samples,
 * the estimated CPU in all and per request, and per request the allocated bytes and the wait of
 * each kind. Columns of kinds whose profiles are absent (source off) are left out.
 *
 * <p>Not API: internal to Spanflight.
 */
final class EndpointCostTable {
  /** How the figures are made and what they leave out; shown under the table. */
  static final String NOTE = "Estimates from the profiles, by the rules of the spanflight.cost.* span attributes: "
      + "CPU is the CPU-time samples' periods where the cputime source was on, else execution samples x period; "
      + "waits count only JFR events above their source's threshold. A request is a trace with at least one "
      + "sample of the endpoint: requests that left no sample are not seen, so per-request figures are "
      + "per sampled request and overstate short requests (at a 20 ms period most 4 ms requests leave none); "
      + "the totals are not biased. For per-request costs over all requests use the spanflight.request.* metrics.";

  final List<String> header = new ArrayList<>();
  final List<List<String>> rows = new ArrayList<>();

  private EndpointCostTable() {}

  static EndpointCostTable of(EndpointCosts costs, List<EndpointCosts.Row> rows) {
    EndpointCostTable table = new EndpointCostTable();
    int cpu = costs.cpuKind();
    table.header.add("endpoint");
    table.header.add("requests seen");
    if (cpu != CostKind.NONE) {
      table.header.add(cpu == CostKind.CPU_TIME ? "CPU-time samples" : "CPU samples");
      table.header.add("CPU (est.)");
      table.header.add("CPU / request (est.)");
    }
    if (costs.present(CostKind.ALLOCATION)) {
      table.header.add("allocated / request");
    }
    for (int i = 0; i < CostKind.waitCount(); i++) {
      if (costs.present(CostKind.waitKind(i))) {
        table.header.add(CostKind.waitName(i) + " wait / request");
      }
    }
    for (EndpointCosts.Row row : rows) {
      List<String> cells = new ArrayList<>();
      cells.add(row.endpoint);
      cells.add(Integer.toString(row.requests));
      if (cpu != CostKind.NONE) {
        cells.add(Long.toString(row.count(cpu)));
        cells.add(nanos(row.total(cpu)));
        cells.add(perRequest(row, cpu, false));
      }
      if (costs.present(CostKind.ALLOCATION)) {
        cells.add(perRequest(row, CostKind.ALLOCATION, true));
      }
      for (int i = 0; i < CostKind.waitCount(); i++) {
        if (costs.present(CostKind.waitKind(i))) {
          cells.add(perRequest(row, CostKind.waitKind(i), false));
        }
      }
      table.rows.add(cells);
    }
    return table;
  }

  private static String perRequest(EndpointCosts.Row row, int kind, boolean bytes) {
    if (row.requests == 0) {
      return "-";
    }
    double value = row.total(kind) / (double) row.requests;
    return bytes ? bytes(value) : nanos(value);
  }

  static String nanos(double ns) {
    if (ns >= 1e9) {
      return String.format(Locale.ROOT, "%.2f s", ns / 1e9);
    }
    if (ns >= 1e6) {
      return String.format(Locale.ROOT, "%.1f ms", ns / 1e6);
    }
    if (ns >= 1e3) {
      return String.format(Locale.ROOT, "%.1f us", ns / 1e3);
    }
    return String.format(Locale.ROOT, "%.0f ns", ns);
  }

  static String bytes(double b) {
    if (b >= 1L << 30) {
      return String.format(Locale.ROOT, "%.2f GB", b / (1L << 30));
    }
    if (b >= 1L << 20) {
      return String.format(Locale.ROOT, "%.1f MB", b / (1L << 20));
    }
    if (b >= 1L << 10) {
      return String.format(Locale.ROOT, "%.1f KB", b / (1L << 10));
    }
    return String.format(Locale.ROOT, "%.0f B", b);
  }
}
