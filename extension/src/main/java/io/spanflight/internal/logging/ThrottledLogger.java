package io.spanflight.internal.logging;

import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Logs a repeated runtime failure at most once per period, with how many were suppressed.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class ThrottledLogger {
  private final Logger logger;
  private final long periodNanos;
  private long lastLogged = System.nanoTime() - Long.MAX_VALUE / 2;
  private long suppressed;

  public ThrottledLogger(Logger logger, long period, TimeUnit unit) {
    this.logger = logger;
    this.periodNanos = unit.toNanos(period);
  }

  public synchronized void log(Level level, String message, Throwable error) {
    long now = System.nanoTime();
    if (now - lastLogged < periodNanos) {
      suppressed++;
      return;
    }
    String suffix = suppressed > 0 ? " (" + suppressed + " similar messages suppressed)" : "";
    lastLogged = now;
    suppressed = 0;
    logger.log(level, message + suffix, error);
  }
}
