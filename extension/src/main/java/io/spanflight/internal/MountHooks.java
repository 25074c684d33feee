package io.spanflight.internal;

import io.spanflight.internal.capture.CarrierRecordWriter;
import io.spanflight.internal.instrumentation.VirtualThreadHooks;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The virtual-thread mount and unmount hooks, which make carriers' records show the mounted
 * thread's context. Installed once per JVM, by the first run's background thread (off the agent's
 * startup); they stay while profiling is off. Until they are in, a carrier's record shows the
 * context of the last switch made on it, as without hooks.
 *
 * <p>Not API: internal to Spanflight.
 */
final class MountHooks {
  /** Writes carriers' records at mounts; null without a native record (nothing to hook for). */
  private final CarrierRecordWriter carrierRecords;
  private final Path nativeDirectory;
  /** The outcome, once tried. */
  private String outcome; // guarded by this

  MountHooks(CarrierRecordWriter carrierRecords, Path nativeDirectory) {
    this.carrierRecords = carrierRecords;
    this.nativeDirectory = nativeDirectory;
  }

  /** Installs the hooks on the first call; returns the outcome for the startup log line. */
  synchronized String installOnce() {
    if (outcome == null) {
      if (carrierRecords == null) {
        outcome = "virtual-thread mount hooks off (no native record)";
      } else {
        long start = System.nanoTime();
        carrierRecords.prepare();
        String failure = VirtualThreadHooks.install(nativeDirectory, carrierRecords.onMount(), carrierRecords.onUnmount());
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        outcome = failure == null
            ? "virtual-thread mount hooks on (" + millis + " ms)"
            : "virtual-thread mount hooks off (" + failure + ")";
      }
    }
    return outcome;
  }
}
