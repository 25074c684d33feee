package io.spanflight.internal.capture;

/**
 * Recognises the platform threads that carry virtual threads ({@code jdk.internal.misc.CarrierThread},
 * the worker type of the JDK's virtual-thread scheduler, JDK 21 and newer).
 *
 * <p>Why: on JDK 25 the OpenTelemetry javaagent (2.33.1) still hooks {@code
 * VirtualThread.switchToCarrierThread/switchToVirtualThread}, which JDK 25 removed, so its executor
 * instrumentation wraps the scheduler's continuation task with the context of whoever first
 * submitted it. The carrier then attaches that stale span around every mount. A carrier never runs
 * application code of its own, so its own switches are ignored: its record is written only by the
 * mount/unmount hooks, and its timeline stays empty.
 *
 * <p>Not API: internal to Spanflight.
 */
final class CarrierThreads {
  /** Null before JDK 21 (and on a JDK without that class): then no thread is a carrier. */
  private static final Class<?> CARRIER_THREAD = carrierThreadClass();

  private CarrierThreads() {}

  /** Whether {@code thread} is a virtual-thread carrier; a single type check. */
  static boolean isCarrier(Thread thread) {
    Class<?> carrier = CARRIER_THREAD;
    return carrier != null && carrier.isInstance(thread);
  }

  private static Class<?> carrierThreadClass() {
    try {
      // Loading needs no access to the (unexported) package; isInstance needs none either.
      return Class.forName("jdk.internal.misc.CarrierThread", false, null);
    } catch (ClassNotFoundException | LinkageError e) {
      return null;
    }
  }
}
