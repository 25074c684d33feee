package io.spanflight.internal.config;

import java.util.List;
import java.util.function.Supplier;

/**
 * A setting that cannot be used: names the key, the value and the form that was expected. The
 * value is shown on one line (control characters escaped) and shortened when very long; callers
 * pass settings that can hold secrets through {@link Redacted} first, or use {@link #secret}.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class ConfigError extends RuntimeException {
  private static final long serialVersionUID = 1L;
  /** Longer values are cut here in messages. */
  static final int MAX_SHOWN = 200;

  ConfigError(String key, String value, String expected) {
    super("invalid value '" + shown(value) + "' for " + key + " (" + envName(key) + "): expected " + expected);
  }

  /** For a setting whose value is secret as a whole: the value is not shown at all. */
  static ConfigError secret(String key, String expected) {
    return new ConfigError(key, expected);
  }

  private ConfigError(String key, String expected) {
    super("invalid value (not shown: it may hold secrets) for " + key + " (" + envName(key) + "): expected " + expected);
  }

  /**
   * What {@code reader} reads; when it refuses a value, its message goes to {@code errors} and
   * {@code onError} stands in, so that one wrong key makes one message.
   */
  static <T> T collect(List<String> errors, Supplier<T> reader, T onError) {
    try {
      return reader.get();
    } catch (ConfigError e) {
      errors.add(e.getMessage());
      return onError;
    }
  }

  /** The environment variable that sets the same key, e.g. OTEL_SPANFLIGHT_EXPORTER. */
  static String envName(String key) {
    return key.toUpperCase(java.util.Locale.ROOT).replace('.', '_').replace('-', '_');
  }

  private static String shown(String value) {
    String oneLine = Redacted.oneLine(String.valueOf(value));
    return oneLine.length() <= MAX_SHOWN
        ? oneLine
        : oneLine.substring(0, MAX_SHOWN) + "... (" + value.length() + " characters)";
  }
}
