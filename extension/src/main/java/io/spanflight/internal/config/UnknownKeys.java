package io.spanflight.internal.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Misspelt keys: a system property that starts with {@code otel.spanflight.}, or an environment
 * variable that starts with {@code OTEL_SPANFLIGHT_}, that Spanflight does not read ({@link
 * KnownKeys}) gets one warning line at startup naming it and the known key nearest to it (edit
 * distance), so that {@code -Dotel.spanflight.cpuu.enabled=false} does not pass for a setting.
 * The agent's {@code ConfigProperties} cannot list its keys; the system properties and the
 * environment can. Keys are compared as the agent reads them: lower case, with {@code -} (system
 * properties) or {@code _} (environment) as {@code .}. Values are never shown: they may be secrets.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class UnknownKeys {
  private static final Logger logger = Logger.getLogger("io.spanflight");
  private static final String ENV_PREFIX = "OTEL_SPANFLIGHT_";

  private UnknownKeys() {}

  /** Logs one warning per unknown key among this JVM's system properties and environment. */
  public static void warnAboutSystemPropertiesAndEnvironment() {
    try {
      Properties properties = System.getProperties();
      for (String line : warnings(properties.stringPropertyNames(), System.getenv().keySet())) {
        logger.warning(line);
      }
    } catch (RuntimeException e) { // a security manager that hides them: nothing to compare
      logger.log(Level.FINE, "Spanflight could not list the system properties and the environment", e);
    }
  }

  /** One line per unknown key among {@code systemProperties} and {@code environment} (names only). */
  static List<String> warnings(Set<String> systemProperties, Set<String> environment) {
    Set<String> known = KnownKeys.all();
    List<String> lines = new ArrayList<>();
    for (String name : new TreeSet<>(systemProperties)) {
      String key = name.toLowerCase(Locale.ROOT).replace('-', '.');
      if (key.startsWith(KnownKeys.PREFIX) && !known.contains(key)) {
        lines.add(line("system property", name, nearest(key, known)));
      }
    }
    for (String name : new TreeSet<>(environment)) {
      String key = name.toLowerCase(Locale.ROOT).replace('_', '.');
      if (name.toUpperCase(Locale.ROOT).startsWith(ENV_PREFIX) && !known.contains(key)) {
        lines.add(line("environment variable", name, ConfigError.envName(nearest(key, known))));
      }
    }
    return lines;
  }

  private static String line(String kind, String name, String nearest) {
    return "Spanflight does not know the " + kind + " " + Redacted.oneLine(name) + " and ignores it: did you mean "
        + nearest + "? (the settings are listed in docs/configuration.md)";
  }

  /** The known key with the fewest single-character edits from {@code key}; the first such in order. */
  static String nearest(String key, Set<String> known) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String candidate : known) {
      int distance = editDistance(key, candidate);
      if (distance < bestDistance) {
        best = candidate;
        bestDistance = distance;
      }
    }
    return best;
  }

  /** Levenshtein distance: insertions, deletions and substitutions of one character. */
  static int editDistance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}
