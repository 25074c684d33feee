package io.spanflight.internal.report;

import io.spanflight.internal.format.CostKind;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What each request cost, per endpoint, as far as the profiles tell: the per-endpoint side of the
 * {@code spanflight.cost.*} span attributes, by the same rules ({@link CostKind}: which sample
 * types count as which kind, and CPU-time samples before execution samples). The sums are over the
 * samples that link to a span; a request is a trace with at least one such sample of the endpoint
 * (the profiles name the innermost span, not the local root: one trace passes each endpoint of
 * this service once, as a rule). Requests that left no sample are not seen, which the span
 * attributes and route metrics do count: see {@link EndpointCostTable#NOTE}.
 *
 * <p>Not API: internal to Spanflight.
 */
final class EndpointCosts {
  /** One endpoint: its requests and, per {@link CostKind}, the count then the total. */
  static final class Row {
    final String endpoint;
    final int requests;
    final long[] costs;

    Row(String endpoint, int requests, long[] costs) {
      this.endpoint = endpoint;
      this.requests = requests;
      this.costs = costs;
    }

    long count(int kind) {
      return costs[2 * kind];
    }

    long total(int kind) {
      return costs[2 * kind + 1];
    }
  }

  private final Map<String, long[]> byEndpoint = new LinkedHashMap<>();
  private final boolean[] present = new boolean[CostKind.COUNT];

  /**
   * The cost kind of a profile's samples, or {@link CostKind#NONE} when its type or unit is not
   * one the span costs count (execution samples need a CPU period in nanoseconds to be time).
   */
  static int kindOf(ProfilesRequest.Profile profile) {
    int kind = CostKind.ofSampleType(profile.type);
    if (kind == CostKind.CPU) {
      boolean time = profile.unit.equals("count") && profile.period > 0 && profile.periodUnit.equals("nanoseconds");
      return time ? kind : CostKind.NONE;
    }
    String unit = kind == CostKind.ALLOCATION ? "bytes" : "nanoseconds";
    return kind != CostKind.NONE && profile.unit.equals(unit) ? kind : CostKind.NONE;
  }

  /** Notes that a profile of {@code kind} was read: its source was on. */
  void seen(int kind) {
    if (kind != CostKind.NONE) {
      present[kind] = true;
    }
  }

  /**
   * Adds one linked sample of {@code kind} (not {@link CostKind#NONE}) to {@code endpoint}:
   * {@code value} and {@code events} as decoded, {@code period} its profile's.
   */
  void add(String endpoint, int kind, long value, int events, long period) {
    value = Math.max(0, value); // hostile input: a negative value counts as none
    long[] costs = byEndpoint.computeIfAbsent(endpoint, e -> new long[2 * CostKind.COUNT]);
    long count = kind == CostKind.CPU ? value : events; // an execution sample's value is its count
    long total = kind == CostKind.CPU ? saturatedMultiply(value, period) : value;
    costs[2 * kind] = saturatedAdd(costs[2 * kind], count);
    costs[2 * kind + 1] = saturatedAdd(costs[2 * kind + 1], total);
  }

  /** Per kind, whether any profile of it was read. */
  boolean present(int kind) {
    return present[kind];
  }

  /** The CPU kind shown: CPU-time samples where read, else execution samples, else none. */
  int cpuKind() {
    return CostKind.cpuKind(present);
  }

  /** The endpoints with linked samples, the most CPU first, then by name. */
  List<Row> rows(Collection<ReportModel.Trace> traces) {
    Map<String, Integer> requests = new HashMap<>();
    for (ReportModel.Trace trace : traces) {
      for (String endpoint : trace.endpoints) {
        requests.merge(endpoint, 1, Integer::sum);
      }
    }
    List<Row> rows = new ArrayList<>();
    byEndpoint.forEach((endpoint, costs) -> rows.add(new Row(endpoint, requests.getOrDefault(endpoint, 0), costs)));
    int cpu = cpuKind();
    Comparator<Row> order = Comparator.comparing((Row r) -> r.endpoint.equals(ReportModel.NO_ENDPOINT));
    if (cpu != CostKind.NONE) {
      order = order.thenComparing(Comparator.comparingLong((Row r) -> r.total(cpu)).reversed());
    }
    rows.sort(order.thenComparing(r -> r.endpoint));
    return rows;
  }

  private static long saturatedAdd(long a, long b) {
    long sum = a + b;
    return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
  }

  private static long saturatedMultiply(long a, long b) {
    long high = Math.multiplyHigh(a, b);
    long low = a * b;
    return high == 0 && low >= 0 ? low : Long.MAX_VALUE;
  }
}
