package io.spanflight.benchmarks.overhead;

import java.util.Map;

/**
 * One measured run of one arm.
 *
 * @param arm the arm's name
 * @param pair the pair it belongs to (the run of its baseline at the same time has the same)
 * @param requests successful requests in the measured window
 * @param failed failed requests in the measured window
 * @param throughput successful requests per second
 * @param p50Nanos median latency
 * @param p99Nanos 99th percentile latency
 * @param cpuNanosPerRequest application JVM CPU time (user + system) per successful request
 * @param meanRssBytes mean of VmRSS sampled every second during the measured window
 * @param peakRssBytes VmHWM at the end of the window
 * @param heap at the end of the window, how much of the RSS is the Java heap
 * @param nativeCommitted at the end of the window, NMT's committed bytes per area (empty unless
 *     the harness ran with {@code --nmt true})
 * @param jit what the JIT compilers did inside the window ({@link JitCounters}; empty if unknown)
 * @param groupCpuNanos CPU in the window per {@link ThreadGroups group of threads}
 * @param loadAverage the machine's load average at the end of the window
 * @param exported what the sink received from the pair (path to requests and bytes), on the arm's
 *     run only
 * @param profile CPU samples with Spanflight frames, per group of threads ({@code --profile true};
 *     else {@link CpuProfiles.Shares#NONE})
 */
record RunResult(String arm, String pair, long requests, long failed, double throughput, long p50Nanos,
    long p99Nanos, double cpuNanosPerRequest, long meanRssBytes, long peakRssBytes, HeapResidency.Split heap,
    Map<String, Long> nativeCommitted, Map<String, Long> jit, Map<String, Long> groupCpuNanos, String loadAverage,
    Map<String, String> exported, CpuProfiles.Shares profile) {}
