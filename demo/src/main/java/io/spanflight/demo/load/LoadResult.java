package io.spanflight.demo.load;

import java.util.Arrays;
import java.util.Map;

/**
 * What one load run measured: requests answered 200, failures (other statuses and I/O errors),
 * the first failure, per-endpoint counts, and the latency of every successful request.
 */
public final class LoadResult {
  private final long ok;
  private final long failed;
  private final String firstFailure;
  private final Map<String, Long> okByEndpoint;
  private final long[] sortedLatencyNanos;
  private final long elapsedNanos;

  LoadResult(long ok, long failed, String firstFailure, Map<String, Long> okByEndpoint,
      long[] latencyNanos, long elapsedNanos) {
    this.ok = ok;
    this.failed = failed;
    this.firstFailure = firstFailure;
    this.okByEndpoint = Map.copyOf(okByEndpoint);
    this.sortedLatencyNanos = latencyNanos.clone();
    Arrays.sort(this.sortedLatencyNanos);
    this.elapsedNanos = elapsedNanos;
  }

  public long ok() {
    return ok;
  }

  public long failed() {
    return failed;
  }

  /** The first failure seen, or null. */
  public String firstFailure() {
    return firstFailure;
  }

  /** Successful requests per endpoint (path without query). */
  public Map<String, Long> okByEndpoint() {
    return okByEndpoint;
  }

  public long elapsedNanos() {
    return elapsedNanos;
  }

  /** Successful requests per second over the run. */
  public double throughput() {
    return elapsedNanos == 0 ? 0 : ok * 1e9 / elapsedNanos;
  }

  /** The latency quantile {@code q} (0..1) of successful requests, in nanoseconds (0 if none). */
  public long latencyQuantileNanos(double q) {
    if (sortedLatencyNanos.length == 0) {
      return 0;
    }
    int index = (int) Math.ceil(q * sortedLatencyNanos.length) - 1;
    return sortedLatencyNanos[Math.max(0, Math.min(sortedLatencyNanos.length - 1, index))];
  }

  @Override
  public String toString() {
    return ok + " ok, " + failed + " failed" + (firstFailure == null ? "" : " (first: " + firstFailure + ")");
  }
}
