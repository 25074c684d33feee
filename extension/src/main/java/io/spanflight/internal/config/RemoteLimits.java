package io.spanflight.internal.config;

import static io.spanflight.internal.config.OpampSettings.PREFIX;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a remote configuration (OpAMP) may change at run time, and how far: set locally by the
 * operator ({@code otel.spanflight.opamp.allow}, {@code .min.period}, ...), never by the server.
 * A remote value beyond a limit fails the whole remote configuration with a message that names
 * the key, the value and the limit. Always in force, whatever the settings: a remote method filter
 * may not name the JDK's, the agent's or Spanflight's own classes, nor a bare {@code ::method}
 * (which matches every class, the JDK's too).
 *
 * <p>Not API: internal to Spanflight.
 *
 * @param allowed the groups of {@link #GROUPS} a remote configuration may set
 * @param minPeriod the shortest sampling period ({@code cpu}, {@code cputime}, {@code nativemethod})
 * @param minThreshold the shortest threshold of the wait sources (lock, park, socket, file)
 * @param maxPerSecond the most events a second a throttle may allow ({@code alloc.throttle})
 * @param minInterval the shortest export interval
 * @param maxTimeBox when set, every remote configuration must carry a time box this long at most
 * @param maxMethods the most methods a remote method filter may name
 */
public record RemoteLimits(
    Set<String> allowed,
    Duration minPeriod,
    Duration minThreshold,
    int maxPerSecond,
    Duration minInterval,
    Duration maxTimeBox,
    int maxMethods) {
  public static final String ALLOW = PREFIX + "allow";
  /** What {@value #ALLOW} lists, all of them by default. */
  public static final List<String> GROUPS =
      List.of("enabled", "sources", "context.filter", "methodtiming", "methodtrace", "interval");
  public static final String MIN_PERIOD = PREFIX + "min.period";
  public static final String MIN_THRESHOLD = PREFIX + "min.threshold";
  public static final String MAX_THROTTLE = PREFIX + "max.throttle";
  public static final String MIN_INTERVAL = PREFIX + "min.interval";
  public static final String MAX_TIME_BOX = PREFIX + "max.time.box";
  public static final String MAX_METHODS = PREFIX + "max.methods";
  /**
   * Classes a remote method filter may never name: the JDK's, the agent's, ours (the extension's
   * under {@value #SPANFLIGHT_INTERNAL}, and the API's, directly in {@value #SPANFLIGHT_API}; not
   * applications that happen to live under {@code io.spanflight}, such as the demo).
   */
  static final List<String> GUARDED_PACKAGES =
      List.of("java.", "javax.", "jdk.", "sun.", "com.sun.", "io.opentelemetry.", "io.spanflight.internal.");
  static final String SPANFLIGHT_INTERNAL = "io.spanflight.internal.";
  static final String SPANFLIGHT_API = "io.spanflight.";

  private static final Pattern RATE = Pattern.compile("(\\d+)/(ns|us|ms|s|m|h)");

  static RemoteLimits read(Settings s, List<String> errors) {
    Set<String> allowed = ConfigError.collect(
        errors, () -> s.choices(ALLOW, String.join(",", GROUPS), GROUPS.toArray(String[]::new)), Set.of());
    Duration minPeriod = ConfigError.collect(
        errors, () -> s.duration(MIN_PERIOD, Duration.ofMillis(10), Duration.ofMillis(1), Duration.ofSeconds(10)),
        Duration.ofMillis(10));
    Duration minThreshold = ConfigError.collect(
        errors, () -> s.duration(MIN_THRESHOLD, Duration.ofMillis(1), Duration.ZERO, Duration.ofHours(1)),
        Duration.ofMillis(1));
    int maxPerSecond = ConfigError.collect(errors, () -> s.integer(MAX_THROTTLE, 1000, 1, 1_000_000), 1000);
    Duration minInterval = ConfigError.collect(
        errors, () -> s.duration(MIN_INTERVAL, Duration.ofSeconds(5), Duration.ofSeconds(1), Duration.ofHours(1)),
        Duration.ofSeconds(5));
    Duration maxTimeBox = ConfigError.collect(
        errors, () -> s.duration(MAX_TIME_BOX, null, Duration.ofSeconds(1), Duration.ofDays(7)), null);
    int maxMethods = ConfigError.collect(errors, () -> s.integer(MAX_METHODS, 16, 1, 1000), 16);
    return new RemoteLimits(
        Set.copyOf(allowed), minPeriod, minThreshold, maxPerSecond, minInterval, maxTimeBox, maxMethods);
  }

  /**
   * The group of a key that may change at run time ({@link #GROUPS}), or null for a key that is
   * read at start only (or not at all).
   */
  public static String group(String key) {
    if (key.equals(SpanflightConfig.ENABLED)) {
      return "enabled";
    }
    if (key.equals(SpanflightConfig.EXPORT_INTERVAL)) {
      return "interval";
    }
    if (key.equals(FilterSettings.ALL)) {
      return "context.filter";
    }
    for (String source : SourceSettings.NAMES) {
      String prefix = "otel.spanflight." + source + ".";
      if (!key.startsWith(prefix)) {
        continue;
      }
      String setting = key.substring(prefix.length());
      if (setting.equals("context.filter")) {
        return "context.filter";
      }
      boolean method = source.equals(SourceSettings.METHOD_TIMING) || source.equals(SourceSettings.METHOD_TRACE);
      if (method && (setting.equals("filter") || setting.equals("enabled"))) {
        return source;
      }
      if (!method && List.of("enabled", "period", "threshold", "throttle").contains(setting)) {
        return "sources";
      }
    }
    return null;
  }

  /**
   * Adds to {@code errors} one message per remote value beyond these limits; values already
   * checked by the readers (their form), so only the limits are checked here.
   */
  void check(Map<String, String> remote, Duration timeBox, List<String> errors) {
    if (maxTimeBox != null && (timeBox == null || timeBox.compareTo(maxTimeBox) > 0)) {
      errors.add(new ConfigError(RemoteSettings.TIME_BOX, timeBox == null ? "" : timeBox.toString(),
          "a time box of at most " + maxTimeBox + " (local limit " + MAX_TIME_BOX + ")").getMessage());
    }
    remote.forEach((key, value) -> {
      String group = group(key);
      if (group != null && !allowed.contains(group)) {
        errors.add(new ConfigError(key, value, "no remote value: " + ALLOW + " leaves out " + group).getMessage());
      } else if (key.endsWith(".period")) {
        atLeast(key, value, minPeriod, MIN_PERIOD, errors);
      } else if (key.endsWith(".threshold")) {
        atLeast(key, value, minThreshold, MIN_THRESHOLD, errors);
      } else if (key.equals(SpanflightConfig.EXPORT_INTERVAL)) {
        atLeast(key, value, minInterval, MIN_INTERVAL, errors);
      } else if (key.endsWith(".throttle")) {
        throttle(key, value, errors);
      } else if (key.endsWith(".filter") && !key.endsWith(".context.filter")) {
        methodFilter(key, value, errors);
      }
    });
  }

  private static void atLeast(String key, String value, Duration min, String limitKey, List<String> errors) {
    Duration parsed = Settings.parseDuration(value);
    if (parsed != null && parsed.compareTo(min) < 0) {
      errors.add(new ConfigError(key, value, "at least " + min.toMillis() + "ms (local limit " + limitKey + ")").getMessage());
    }
  }

  private void throttle(String key, String value, List<String> errors) {
    Matcher m = RATE.matcher(value.trim());
    if (!m.matches()) {
      return; // its reader said what is wrong with it
    }
    double perSecond;
    try {
      perSecond = Long.parseLong(m.group(1)) * perSecondOf(m.group(2));
    } catch (NumberFormatException e) {
      return;
    }
    if (perSecond > maxPerSecond) {
      errors.add(new ConfigError(key, value, "at most " + maxPerSecond + "/s (local limit " + MAX_THROTTLE + ")").getMessage());
    }
  }

  private static double perSecondOf(String unit) {
    switch (unit) {
      case "ns":
        return 1e9;
      case "us":
        return 1e6;
      case "ms":
        return 1e3;
      case "m":
        return 1.0 / 60;
      case "h":
        return 1.0 / 3600;
      default:
        return 1;
    }
  }

  private void methodFilter(String key, String value, List<String> errors) {
    String[] methods = value.split(";");
    if (methods.length > maxMethods) {
      errors.add(new ConfigError(key, value, "at most " + maxMethods + " methods (local limit " + MAX_METHODS + ")").getMessage());
      return;
    }
    for (String method : methods) {
      String named = method.trim().replaceFirst("^@", "");
      if (named.startsWith("::")) {
        errors.add(new ConfigError(key, value, "a class for every method: '" + named + "' matches the JDK's methods too")
            .getMessage());
        return;
      }
      String type = named.contains("::") ? named.substring(0, named.indexOf("::")) : named;
      if (type.startsWith(SPANFLIGHT_API) && type.indexOf('.', SPANFLIGHT_API.length()) < 0) {
        errors.add(new ConfigError(key, value, "no class of Spanflight's API (package io.spanflight)").getMessage());
        return;
      }
      for (String guarded : GUARDED_PACKAGES) {
        if (named.toLowerCase(Locale.ROOT).startsWith(guarded)) {
          errors.add(new ConfigError(key, value, "no class under " + guarded + " (the JDK's, the agent's or Spanflight's)")
              .getMessage());
          return;
        }
      }
    }
  }
}
