package io.spanflight.smoke.app;

import io.opentelemetry.instrumentation.annotations.WithSpan;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;
import jdk.jfr.RecordingState;

/**
 * A program whose last act is a known number of parks, each in its own {@code @WithSpan} span,
 * so that the last second of JFR events is all that matters at shutdown: it waits until
 * Spanflight's JFR recording runs, parks {@code parks.count} times ({@code parks.millis} ms each,
 * default 300 of 5 ms) in {@link #parkInSpan}, prints {@code PARKS DONE <n> short <k>} ({@code k}
 * parks that took less than 3 ms as measured here, which JFR may have recorded below Spanflight's
 * threshold) and then, with {@code parks.exit=return} (the default), returns from {@code main};
 * with {@code parks.exit=wait}, sleeps until the JVM is stopped (SIGTERM).
 */
public final class ShutdownParksApp {
  /** The method the park samples must show, as profile frames name it. */
  public static final String PARK_METHOD = ShutdownParksApp.class.getName() + ".parkInSpan";

  private static final long SHORT_NANOS = TimeUnit.MILLISECONDS.toNanos(3);

  private ShutdownParksApp() {}

  public static void main(String[] args) throws InterruptedException {
    int count = Integer.getInteger("parks.count", 300);
    long nanos = TimeUnit.MILLISECONDS.toNanos(Long.getLong("parks.millis", 5));
    awaitSpanflightRecording();
    int tooShort = 0;
    for (int i = 0; i < count; i++) {
      if (parkInSpan(nanos) < SHORT_NANOS) {
        tooShort++;
      }
    }
    System.out.println("PARKS DONE " + count + " short " + tooShort);
    System.out.flush();
    if ("wait".equals(System.getProperty("parks.exit"))) {
      Thread.sleep(Long.MAX_VALUE); // a sleep, not a park: no park event of this thread after the count
    }
  }

  /** Parks for {@code nanos} inside a span; returns the time parked. */
  @WithSpan("park")
  static long parkInSpan(long nanos) {
    long start = System.nanoTime();
    LockSupport.parkNanos(nanos);
    return System.nanoTime() - start;
  }

  /** Waits (up to a minute) until Spanflight's JFR recording runs: parks before it are not recorded. */
  private static void awaitSpanflightRecording() throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
    while (System.nanoTime() - deadline < 0) {
      if (FlightRecorder.isInitialized()) {
        for (Recording recording : FlightRecorder.getFlightRecorder().getRecordings()) {
          if ("Spanflight".equals(recording.getName()) && recording.getState() == RecordingState.RUNNING) {
            return;
          }
        }
      }
      Thread.sleep(50);
    }
    System.out.println("NO SPANFLIGHT RECORDING");
  }
}
