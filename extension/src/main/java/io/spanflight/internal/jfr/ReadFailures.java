package io.spanflight.internal.jfr;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Counts the failed reads of our recording (a chunk our reader refuses, a file that went away) and
 * says whether to start a new recording: yes, unless {@value #MAX_READ_FAILURES} failures came
 * within {@value #READ_FAILURE_MEMORY_MINUTES} minutes of each other. Used by the stream's thread
 * only.
 *
 * <p>Not API: internal to Spanflight.
 */
final class ReadFailures {
  /** Failed reads of our recording, within {@link #READ_FAILURE_MEMORY_MINUTES}, that end profiling. */
  static final int MAX_READ_FAILURES = 3;
  static final long READ_FAILURE_MEMORY_MINUTES = 10;

  private final Logger logger;
  /** Failed reads in a row, each within {@link #READ_FAILURE_MEMORY_MINUTES} of the one before. */
  private int failures;
  private long lastFailure;

  /** @param logger the stream's logger, which says what failed and what happens next */
  ReadFailures(Logger logger) {
    this.logger = logger;
  }

  /** After a read failed with {@code e}: true to start a new recording. */
  boolean startAgainAfter(IOException e, CloseSignal signal) {
    if (signal.closed() || CloseSignal.jvmShuttingDown()) {
      return false; // JFR's shutdown hook deletes the repository (JDK 17): nothing went wrong
    }
    long now = System.nanoTime();
    if (now - lastFailure > TimeUnit.MINUTES.toNanos(READ_FAILURE_MEMORY_MINUTES)) {
      failures = 0;
    }
    lastFailure = now;
    boolean again = ++failures < MAX_READ_FAILURES;
    logger.log(Level.SEVERE, "Spanflight could not read its JFR recording (failure " + failures + " of at most "
        + MAX_READ_FAILURES + " within " + READ_FAILURE_MEMORY_MINUTES + " minutes); the events after the failure"
        + " in that flush are lost, " + (again ? "starting a new recording" : "no more profiles"), e);
    return again;
  }
}
