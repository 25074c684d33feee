package io.spanflight.internal.config;

import io.opentelemetry.sdk.autoconfigure.spi.ConfigProperties;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Strict readers over the agent's {@link ConfigProperties}: each returns the default when the key
 * is unset and throws {@link ConfigError} (key, value, expected form) when it is set but wrong.
 * The SDK's own getters are lenient ({@code getBoolean("yes")} is false), which would hide typos.
 *
 * <p>Not API: internal to Spanflight.
 */
final class Settings {
  private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h)?");

  private final ConfigProperties config;
  /** Every key asked for, set or not: the keys Spanflight knows ({@link KnownKeys}). */
  private final Set<String> asked = new LinkedHashSet<>();

  Settings(ConfigProperties config) {
    this.config = config;
  }

  /** The keys asked for so far, in the order they were first asked for. */
  Set<String> asked() {
    return asked;
  }

  String string(String key, String defaultValue) {
    asked.add(key);
    String value = config.getString(key);
    return value == null || value.isBlank() ? defaultValue : value.trim();
  }

  boolean bool(String key, boolean defaultValue) {
    String value = string(key, null);
    if (value == null) {
      return defaultValue;
    }
    switch (value.toLowerCase(Locale.ROOT)) {
      case "true":
        return true;
      case "false":
        return false;
      default:
        throw new ConfigError(key, value, "true or false");
    }
  }

  /** One of {@code allowed} (lower case), compared without regard to case. */
  String choice(String key, String defaultValue, String... allowed) {
    String value = string(key, defaultValue);
    for (String candidate : allowed) {
      if (candidate.equalsIgnoreCase(value)) {
        return candidate;
      }
    }
    throw new ConfigError(key, value, "one of " + String.join(", ", allowed));
  }

  /**
   * A comma-separated list of attribute keys ({@code none} for an empty list), each made of
   * letters, digits, {@code . _ -}, at most {@code max} of them, without duplicates.
   */
  List<String> attributeKeys(String key, String defaultValue, int max) {
    String value = string(key, defaultValue);
    if (value.equalsIgnoreCase("none")) {
      return List.of();
    }
    Set<String> keys = new LinkedHashSet<>();
    for (String element : value.split(",", -1)) {
      String trimmed = element.trim();
      if (!trimmed.matches("[A-Za-z0-9_.\\-]{1,255}")) {
        throw new ConfigError(
            key, value, "a comma-separated list of attribute keys (letters, digits, '.', '_', '-'), or none");
      }
      keys.add(trimmed);
    }
    if (keys.size() > max) {
      throw new ConfigError(key, value, "at most " + max + " attribute keys");
    }
    return List.copyOf(keys);
  }

  /**
   * A comma-separated, non-empty subset of {@code allowed} (lower case, compared without regard to
   * case), in the order given, without duplicates.
   */
  Set<String> choices(String key, String defaultValue, String... allowed) {
    String value = string(key, defaultValue);
    Set<String> chosen = new LinkedHashSet<>();
    for (String element : value.split(",", -1)) {
      String match = null;
      for (String candidate : allowed) {
        if (candidate.equalsIgnoreCase(element.trim())) {
          match = candidate;
        }
      }
      if (match == null) {
        throw new ConfigError(
            key, value, "a comma-separated list of " + String.join(", ", allowed) + ", like " + allowed[0]);
      }
      chosen.add(match);
    }
    return chosen;
  }

  /** A duration such as {@code 20ms}, {@code 10s}, {@code 1m}; a bare number means milliseconds. */
  Duration duration(String key, Duration defaultValue, Duration min, Duration max) {
    String value = string(key, null);
    if (value == null) {
      return defaultValue;
    }
    String expected =
        "a duration between " + format(min) + " and " + format(max) + ", like 20ms, 10s or 1m";
    Duration parsed = parseDuration(value);
    if (parsed == null) {
      throw new ConfigError(key, value, expected);
    }
    if (parsed.compareTo(min) < 0 || parsed.compareTo(max) > 0) {
      throw new ConfigError(key, value, expected);
    }
    return parsed;
  }

  /** A duration in the form {@link #duration} reads; null when {@code value} is not one. */
  static Duration parseDuration(String value) {
    Matcher m = DURATION.matcher(value.trim().toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      return null;
    }
    try {
      long amount = Long.parseLong(m.group(1));
      String unit = m.group(2) == null ? "ms" : m.group(2);
      switch (unit) {
        case "s":
          return Duration.ofSeconds(amount);
        case "m":
          return Duration.ofMinutes(amount);
        case "h":
          return Duration.ofHours(amount);
        default:
          return Duration.ofMillis(amount);
      }
    } catch (ArithmeticException | NumberFormatException e) {
      return null;
    }
  }

  /** A whole number within [min, max]. */
  int integer(String key, int defaultValue, int min, int max) {
    String value = string(key, null);
    if (value == null) {
      return defaultValue;
    }
    try {
      int parsed = Integer.parseInt(value);
      if (parsed >= min && parsed <= max) {
        return parsed;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new ConfigError(key, value, "a whole number between " + min + " and " + max);
  }

  /** A power of two within [min, max]. */
  int powerOfTwo(String key, int defaultValue, int min, int max) {
    String value = string(key, null);
    if (value == null) {
      return defaultValue;
    }
    String expected = "a power of two between " + min + " and " + max;
    int parsed;
    try {
      parsed = Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw new ConfigError(key, value, expected);
    }
    if (parsed < min || parsed > max || Integer.bitCount(parsed) != 1) {
      throw new ConfigError(key, value, expected);
    }
    return parsed;
  }

  private static String format(Duration d) {
    return d.toMillis() % 1000 == 0 ? d.toSeconds() + "s" : d.toMillis() + "ms";
  }
}
