package io.spanflight.benchmarks.overhead;

import java.util.Arrays;
import java.util.List;

/** Median, a confidence interval for it, and least-squares slope. */
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

  /**
   * A distribution-free interval that holds the true median with at least {@code confidence}: the
   * k-th smallest and k-th largest of the values, for the largest k whose coverage (by the binomial
   * distribution of how many values fall below the median, half each way) reaches it. Null when
   * there are too few values for any such interval (fewer than 5 at 90 %). Returns {low, high,
   * coverage}.
   */
  static double[] medianInterval(List<Double> values, double confidence) {
    double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    int n = sorted.length;
    double[] best = null;
    double below = 0; // P(fewer than k values below the median), growing with k
    for (int k = 1; 2 * k <= n; k++) {
      below += binomialHalf(n, k - 1);
      double coverage = 1 - 2 * below;
      if (coverage < confidence) {
        break;
      }
      best = new double[] {sorted[k - 1], sorted[n - k], coverage};
    }
    return best;
  }

  /** P(X = i) for X ~ Binomial(n, 1/2). */
  private static double binomialHalf(int n, int i) {
    double p = Math.pow(0.5, n);
    for (int j = 0; j < i; j++) {
      p = p * (n - j) / (j + 1);
    }
    return p;
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
