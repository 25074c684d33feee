package io.spanflight.internal.costs;

import io.spanflight.internal.logging.ThrottledLogger;
import io.spanflight.internal.threads.OwnThreads;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The daemon thread {@code spanflight-span-costs} that calls {@link CostSpanExporter#tick} every
 * {@value #PERIOD_MILLIS} ms until the exporter is shut down. Failures are logged (throttled) and
 * never end the ticking.
 *
 * <p>Not API: internal to Spanflight.
 */
final class CostTicker {
  static final long PERIOD_MILLIS = 100;
  private static final Logger logger = Logger.getLogger("io.spanflight");

  private final ScheduledExecutorService scheduler =
      Executors.newSingleThreadScheduledExecutor(OwnThreads.factory("spanflight-span-costs"));
  private final ThrottledLogger failures = new ThrottledLogger(logger, 1, TimeUnit.MINUTES);

  void start(CostSpanExporter exporter) {
    scheduler.scheduleWithFixedDelay(
        () -> {
          if (exporter.isShutDown()) {
            scheduler.shutdown();
            return;
          }
          try {
            exporter.tick();
          } catch (Throwable t) {
            failures.log(Level.WARNING, "Spanflight could not send spans held for their costs", t);
          }
        },
        PERIOD_MILLIS,
        PERIOD_MILLIS,
        TimeUnit.MILLISECONDS);
  }
}
