package io.spanflight.benchmarks.overhead;

import java.util.Arrays;
import java.util.List;

/** Median and least-squares slope. */
final class Stats {
  private Stats() {}

  static double median(List<Double> values) {
    if (values.isEmpty()) {
      return Double.NaN;
    }
    double[] sorted = values.stream().mapToDouble(Double::doubleValue).toArray();
    Arrays.sort(sorted);
    int mid = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  }

  static double min(List<Double> values) {
    return values.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
  }

  static double max(List<Double> values) {
    return values.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
  }

  /** The least-squares slope of y over x (NaN with fewer than two points). */
  static double slope(double[] x, double[] y) {
    int n = x.length;
    if (n < 2) {
      return Double.NaN;
    }
    double mx = Arrays.stream(x).average().orElse(0);
    double my = Arrays.stream(y).average().orElse(0);
    double sxy = 0;
    double sxx = 0;
    for (int i = 0; i < n; i++) {
      sxy += (x[i] - mx) * (y[i] - my);
      sxx += (x[i] - mx) * (x[i] - mx);
    }
    return sxx == 0 ? Double.NaN : sxy / sxx;
  }
}
