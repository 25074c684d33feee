package io.spanflight.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * What a logger, and the loggers under it, publish while a test listens: each record as it was
 * logged, level and message unformatted. Listens from {@link #listen} until {@link #close}; safe
 * to read while other threads log.
 */
public final class LogLines implements AutoCloseable {
  /** Held, so that the logger (weakly referenced by its manager) keeps the handler while listened to. */
  private final Logger logger;
  private final List<LogRecord> records = new ArrayList<>();
  private final Handler handler = new Handler() {
    @Override
    public void publish(LogRecord record) {
      synchronized (records) {
        records.add(record);
      }
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  };

  private LogLines(Logger logger) {
    this.logger = logger;
    logger.addHandler(handler);
  }

  /** Listens to the logger named {@code name} (e.g. {@code "io.spanflight"}, every logger of Spanflight). */
  public static LogLines listen(String name) {
    return new LogLines(Logger.getLogger(name));
  }

  /** Listens to the logger of {@code type}, as the class logs with {@code Logger.getLogger(type.getName())}. */
  public static LogLines listen(Class<?> type) {
    return listen(type.getName());
  }

  /** Every record published so far, in order. */
  public List<LogRecord> records() {
    synchronized (records) {
      return List.copyOf(records);
    }
  }

  /** The records at {@code level} or above (WARNING: warnings and severe lines). */
  public List<LogRecord> atLeast(Level level) {
    return records().stream().filter(r -> r.getLevel().intValue() >= level.intValue()).toList();
  }

  /** The messages of every record so far, in order. */
  public List<String> messages() {
    return records().stream().map(LogRecord::getMessage).toList();
  }

  @Override
  public void close() {
    logger.removeHandler(handler);
  }
}
