package io.spanflight.internal.config;

import io.opentelemetry.sdk.autoconfigure.spi.ConfigProperties;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * Every secret the OTLP settings hold, ours and the agent's, as it may appear in a message from a
 * sender or a collector or in the JVM's command line: the user info (whole and each part) and query
 * values of each OTLP endpoint key, and every header value, raw and decoded. Malformed values are
 * skipped here: refused with their key (ours), or the agent's to refuse.
 *
 * <p>Not API: internal to Spanflight.
 */
final class OtlpSecrets {
  /** The key infixes of the exporters: generic, ours, and the agent's other signals. */
  private static final List<String> SIGNALS = List.of("", "profiles.", "traces.", "metrics.", "logs.");

  private OtlpSecrets() {}

  static List<String> read(Settings s, ConfigProperties properties) {
    List<String> secrets = new ArrayList<>();
    for (String signal : SIGNALS) {
      String endpoint = s.string(OtlpSettings.GENERIC + signal + "endpoint", null);
      if (endpoint != null) {
        try {
          URI uri = new URI(endpoint);
          if (uri.getRawUserInfo() != null) {
            add(secrets, uri.getRawUserInfo());
            for (String part : uri.getRawUserInfo().split(":")) {
              add(secrets, part);
            }
          }
          if (uri.getRawQuery() != null) {
            for (String pair : uri.getRawQuery().split("&")) {
              add(secrets, pair.substring(pair.indexOf('=') + 1));
            }
          }
        } catch (URISyntaxException e) {
          // refused with its key (ours), or the agent's to refuse
        }
      }
      try {
        properties.getMap(OtlpSettings.GENERIC + signal + "headers").values().forEach(value -> add(secrets, value));
      } catch (RuntimeException e) {
        // malformed: refused with its key (ours), or the agent's to refuse
      }
    }
    secrets.removeIf(String::isEmpty);
    return List.copyOf(new LinkedHashSet<>(secrets));
  }

  private static void add(List<String> secrets, String raw) {
    secrets.add(raw);
    try {
      secrets.add(URLDecoder.decode(raw, StandardCharsets.UTF_8));
    } catch (IllegalArgumentException e) {
      // not %-encoded: the raw form is enough
    }
  }
}
