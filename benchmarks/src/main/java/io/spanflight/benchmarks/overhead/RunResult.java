package io.spanflight.benchmarks.overhead;

import java.util.Map;

/**
 * One measured run of one arm.
 *
 * @param arm the arm's name
 * @param round the round (pair) it belongs to
 * @param requests successful requests in the measured window
 * @param failed failed requests in the measured window
 * @param throughput successful requests per second
 * @param p50Nanos median latency
 * @param p99Nanos 99th percentile latency
 * @param cpuNanosPerRequest service JVM CPU time (user + system) per successful request
 * @param meanRssBytes mean of VmRSS sampled every second during the measured window
 * @param peakRssBytes VmHWM at the end of the window
 * @param exported what the sink received from this run (path to requests and bytes)
 */
record RunResult(String arm, int round, long requests, long failed, double throughput, long p50Nanos,
    long p99Nanos, double cpuNanosPerRequest, long meanRssBytes, long peakRssBytes,
    Map<String, String> exported) {}
