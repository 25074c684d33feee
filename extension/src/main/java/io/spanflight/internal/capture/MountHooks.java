package io.spanflight.internal.capture;

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
public final class MountHooks {
  /** How the hooks are put in: {@link VirtualThreadHooks#install}, or a test's stand-in. */
  interface Installer {
    /** Null when the hooks are live, else why they are not. */
    String install(Path jarDirectory, Runnable mounted, Runnable unmounting);
  }

  /** Writes carriers' records at mounts; null without a native record (nothing to hook for). */
  private final CarrierRecordWriter carrierRecords;
  private final Path nativeDirectory;
  private final Installer installer;
  /** The outcome, once tried. */
  private String outcome; // guarded by this

  public MountHooks(CarrierRecordWriter carrierRecords, Path nativeDirectory) {
    this(carrierRecords, nativeDirectory, VirtualThreadHooks::install);
  }

  MountHooks(CarrierRecordWriter carrierRecords, Path nativeDirectory, Installer installer) {
    this.carrierRecords = carrierRecords;
    this.nativeDirectory = nativeDirectory;
    this.installer = installer;
  }

  /**
   * Installs the hooks on the first call that is not interrupted; returns the outcome for the
   * startup log line. A failure while the calling thread is interrupted (profiling switched off
   * during the first start: writing the hooks' jar then fails) is not kept, so the next start
   * tries again instead of leaving the hooks off for the JVM's life.
   */
  public synchronized String installOnce() {
    if (outcome != null) {
      return outcome;
    }
    if (carrierRecords == null) {
      outcome = "virtual-thread mount hooks off (no native record)";
      return outcome;
    }
    long start = System.nanoTime();
    carrierRecords.prepare();
    String failure = installer.install(nativeDirectory, carrierRecords.onMount(), carrierRecords.onUnmount());
    long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    if (failure == null) {
      outcome = "virtual-thread mount hooks on (" + millis + " ms)";
      return outcome;
    }
    String off = "virtual-thread mount hooks off (" + failure + ")";
    if (Thread.currentThread().isInterrupted()) {
      return off + "; interrupted, tried again at the next start";
    }
    outcome = off;
    return outcome;
  }
}
