package io.spanflight.internal.config;

/**
 * A setting that cannot be used: names the key, the value and the form that was expected.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class ConfigError extends RuntimeException {
  private static final long serialVersionUID = 1L;

  ConfigError(String key, String value, String expected) {
    super("invalid value '" + value + "' for " + key + " (" + envName(key) + "): expected " + expected);
  }

  /** The environment variable that sets the same key, e.g. OTEL_SPANFLIGHT_EXPORTER. */
  static String envName(String key) {
    return key.toUpperCase(java.util.Locale.ROOT).replace('.', '_').replace('-', '_');
  }
}
