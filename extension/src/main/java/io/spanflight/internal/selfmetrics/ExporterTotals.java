package io.spanflight.internal.selfmetrics;

import io.spanflight.internal.export.DeliveryQueue;
import io.spanflight.internal.export.DeliveryStats;
import io.spanflight.internal.export.FileProfileExporter;
import io.spanflight.internal.export.ProfileExporter;
import java.util.function.Supplier;

/**
 * The exporters' counters since start, over every run: switching off and on starts a new exporter
 * each time, and these totals never go down (while off, the last run's counts stay). Reads the
 * current run's exporter without waiting for the switch's lock (Spanflight's): the agent's last
 * metric export runs at shutdown while Spanflight's own shutdown holds it.
 *
 * <p>Not API: internal to Spanflight.
 */
final class ExporterTotals {
  private final Supplier<ProfileExporter> exporter;
  /** The OTLP exporter last seen, and the final counts of the runs before it. */
  private DeliveryQueue lastQueue; // guarded by this
  private final long[] endedRuns = new long[4]; // guarded by this
  /** The file exporter last seen, and the files the runs before it refused. */
  private FileProfileExporter lastFiles; // guarded by this
  private long refusedInEndedRuns; // guarded by this

  ExporterTotals(Supplier<ProfileExporter> exporter) {
    this.exporter = exporter;
  }

  /**
   * Requests delivered, dropped (queue full), dropped (refused), dropped (shutdown) by the OTLP
   * exporters, or null while no run has had an OTLP exporter.
   */
  synchronized long[] deliveryCounts() {
    ProfileExporter current = exporter.get();
    if (current instanceof DeliveryQueue && current != lastQueue) {
      if (lastQueue != null) {
        add(endedRuns, counts(lastQueue.stats()));
      }
      lastQueue = (DeliveryQueue) current;
    }
    if (lastQueue == null) {
      return null;
    }
    long[] total = counts(lastQueue.stats());
    add(total, endedRuns);
    return total;
  }

  /** Files the file exporters did not write (something not theirs in the way), or -1 while none ran. */
  synchronized long refusedFiles() {
    ProfileExporter current = exporter.get();
    if (current instanceof FileProfileExporter && current != lastFiles) {
      if (lastFiles != null) {
        refusedInEndedRuns += lastFiles.refusedFiles();
      }
      lastFiles = (FileProfileExporter) current;
    }
    return lastFiles == null ? -1 : refusedInEndedRuns + lastFiles.refusedFiles();
  }

  /** The current run's pending requests (0 while off or without an OTLP exporter). */
  long pending() {
    ProfileExporter current = exporter.get();
    return current instanceof DeliveryQueue ? ((DeliveryQueue) current).stats().pending() : 0;
  }

  private static long[] counts(DeliveryStats stats) {
    return new long[] {
      stats.delivered(), stats.droppedQueueFull(), stats.droppedRefused(), stats.droppedAtShutdown()
    };
  }

  private static void add(long[] into, long[] values) {
    for (int i = 0; i < into.length; i++) {
      into[i] += values[i];
    }
  }
}
