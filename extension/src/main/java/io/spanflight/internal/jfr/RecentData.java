package io.spanflight.internal.jfr;

import io.spanflight.internal.logging.ThrottledLogger;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The JFR data a recording keeps (about its {@code maxAge}), as a recording file's bytes: dumped to
 * a temporary file, read, and deleted. What the raw payload ({@code original_payload}) carries.
 *
 * <p>Not API: internal to Spanflight.
 */
final class RecentData {
  private final Logger logger;
  private final ThrottledLogger dumpFailures;

  /** @param logger the stream's logger, which says when a dump fails (at most once a minute) */
  RecentData(Logger logger) {
    this.logger = logger;
    this.dumpFailures = new ThrottledLogger(logger, 1, TimeUnit.MINUTES);
  }

  /** Writes a recording's data to a file: {@code Recording::dump}. */
  interface Dump {
    void to(Path file) throws IOException;
  }

  /** The bytes {@code dump} writes, or null when the dump fails. */
  byte[] of(Dump dump) {
    Path file = null;
    try {
      file = Files.createTempFile("spanflight-", ".jfr");
      dump.to(file);
      return Files.readAllBytes(file);
    } catch (IOException | RuntimeException e) {
      dumpFailures.log(Level.WARNING, "Spanflight could not dump the JFR data for original_payload", e);
      return null;
    } finally {
      deleteQuietly(file);
    }
  }

  private void deleteQuietly(Path file) {
    if (file != null) {
      try {
        Files.deleteIfExists(file);
      } catch (IOException e) {
        logger.log(Level.FINE, "Spanflight could not delete " + file, e);
      }
    }
  }
}
