package io.spanflight.internal.format;

/**
 * The kinds of cost a span accumulates, one per JFR source that has a per-span meaning. Each kind
 * keeps two numbers per span: how many samples or events, and their total value (nanoseconds of
 * CPU or wait, or bytes). The extension counts them per span (from its JFR sources, {@code
 * costs.SourceCostKind}); the HTML report counts them per endpoint (from exported sample types,
 * {@link #ofSampleType}): one vocabulary, so that both count the same events.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class CostKind {
  /** {@code jdk.ExecutionSample}: value = the sampling period in force (samples x period). */
  public static final int CPU = 0;
  /** {@code jdk.CPUTimeSample} (JDK 25): value = each sample's own sampling period. */
  public static final int CPU_TIME = 1;
  /** {@code jdk.ObjectAllocationSample}: value = the sample's weight in bytes. */
  public static final int ALLOCATION = 2;
  /** {@code jdk.JavaMonitorEnter} and {@code jdk.JavaMonitorWait}: nanoseconds blocked. */
  public static final int LOCK = 3;
  /** {@code jdk.ThreadPark}: nanoseconds parked. */
  public static final int PARK = 4;
  /** {@code jdk.SocketRead} and {@code jdk.SocketWrite}: nanoseconds blocked. */
  public static final int SOCKET = 5;
  /** {@code jdk.FileRead} and {@code jdk.FileWrite}: nanoseconds blocked. */
  public static final int FILE = 6;
  public static final int COUNT = 7;
  /** Not a cost (native samples, method tracing). */
  public static final int NONE = -1;

  /** The wait kinds, in attribute order, with their names. */
  private static final int[] WAITS = {LOCK, PARK, SOCKET, FILE};

  private static final String[] WAIT_NAMES = {"lock", "park", "socket", "file"};

  private CostKind() {}

  /** How many wait kinds there are ({@link #waitKind}, {@link #waitName}). */
  public static int waitCount() {
    return WAITS.length;
  }

  /** The {@code i}-th wait kind, in attribute order. */
  public static int waitKind(int i) {
    return WAITS[i];
  }

  /** The name of the {@code i}-th wait kind ({@code lock}, {@code park}, {@code socket}, {@code file}). */
  public static String waitName(int i) {
    return WAIT_NAMES[i];
  }

  /**
   * The kind whose CPU figure is used, the one rule for span attributes, route metrics and the
   * report: CPU-time samples (JDK 25, exact per sample) where they are on, else execution samples
   * (samples x period), else {@link #NONE}.
   *
   * @param present per kind, whether its events are there (its source is on)
   */
  public static int cpuKind(boolean[] present) {
    return present[CPU_TIME] ? CPU_TIME : present[CPU] ? CPU : NONE;
  }

  /**
   * The kind of an exported profile's OTLP sample type (as {@code jfr.JfrSources} names them),
   * or {@link #NONE}: the profile side of {@code costs.SourceCostKind}, for readers of exported
   * profiles.
   */
  public static int ofSampleType(String type) {
    switch (type) {
      case "samples":
        return CPU;
      case "cpu":
        return CPU_TIME;
      case "alloc_space":
        return ALLOCATION;
      case "lock_contention":
      case "lock_wait":
        return LOCK;
      case "park":
        return PARK;
      case "socket_read":
      case "socket_write":
        return SOCKET;
      case "file_read":
      case "file_write":
        return FILE;
      default:
        return NONE;
    }
  }
}
