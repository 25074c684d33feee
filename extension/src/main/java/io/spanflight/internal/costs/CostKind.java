package io.spanflight.internal.costs;

import io.spanflight.internal.config.SourceSettings;

/**
 * The kinds of cost a span accumulates, one per JFR source that has a per-span meaning. Each kind
 * keeps two numbers per span: how many samples or events, and their total value (nanoseconds of
 * CPU or wait, or bytes).
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
  static final int[] WAITS = {LOCK, PARK, SOCKET, FILE};

  static final String[] WAIT_NAMES = {"lock", "park", "socket", "file"};

  private CostKind() {}

  /** The kind of the configured source {@code sourceName}, or {@link #NONE}. */
  public static int ofSource(String sourceName) {
    switch (sourceName) {
      case SourceSettings.CPU:
        return CPU;
      case SourceSettings.CPU_TIME:
        return CPU_TIME;
      case SourceSettings.ALLOCATION:
        return ALLOCATION;
      case SourceSettings.LOCK:
        return LOCK;
      case SourceSettings.PARK:
        return PARK;
      case SourceSettings.SOCKET:
        return SOCKET;
      case SourceSettings.FILE:
        return FILE;
      default:
        return NONE;
    }
  }
}
