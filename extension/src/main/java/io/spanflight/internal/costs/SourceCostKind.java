package io.spanflight.internal.costs;

import io.spanflight.internal.config.SourceSettings;
import io.spanflight.internal.format.CostKind;

/**
 * The {@link CostKind} of a configured JFR source: the source side of {@link
 * CostKind#ofSampleType}, which the HTML report uses on exported profiles. It stays here, not in
 * {@code profile-format}, because source names are the extension's configuration.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class SourceCostKind {
  private SourceCostKind() {}

  /** The kind of the configured source {@code sourceName}, or {@link CostKind#NONE}. */
  public static int of(String sourceName) {
    switch (sourceName) {
      case SourceSettings.CPU:
        return CostKind.CPU;
      case SourceSettings.CPU_TIME:
        return CostKind.CPU_TIME;
      case SourceSettings.ALLOCATION:
        return CostKind.ALLOCATION;
      case SourceSettings.LOCK:
        return CostKind.LOCK;
      case SourceSettings.PARK:
        return CostKind.PARK;
      case SourceSettings.SOCKET:
        return CostKind.SOCKET;
      case SourceSettings.FILE:
        return CostKind.FILE;
      default:
        return CostKind.NONE;
    }
  }
}
