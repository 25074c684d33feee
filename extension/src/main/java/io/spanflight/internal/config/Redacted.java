package io.spanflight.internal.config;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.AttributeType;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.sdk.resources.Resource;
import io.spanflight.internal.format.JsonString;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * What may be shown of a setting that can carry secrets, in log lines, exception messages, the
 * control MBean and anything else a person or a tool may read: an endpoint without its
 * credentials and query values ({@code https://***@collector:4318/v1development/profiles?token=***}),
 * headers without their values ({@code authorization=***}). TLS key material is never shown at
 * all, only the path of its file.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class Redacted {
  /** What stands in for a secret. */
  public static final String MASK = "***";
  /** Secrets shorter than this are not searched for in foreign text by {@link #scrub}. */
  static final int MIN_SCRUBBED = 4;

  private Redacted() {}

  /**
   * {@code scheme://host:port/path}: user info replaced by {@value #MASK}, each query value by
   * {@value #MASK} (the parameter names stay), a fragment by {@value #MASK}.
   */
  public static String endpoint(URI uri) {
    if (uri == null) {
      return "null";
    }
    if (uri.isOpaque() || uri.getHost() == null) { // e.g. a registry authority: no parsed user info
      return endpoint(uri.toString());
    }
    if (uri.getRawUserInfo() == null && uri.getRawQuery() == null && uri.getRawFragment() == null) {
      return oneLine(uri.toString());
    }
    StringBuilder shown = new StringBuilder();
    if (uri.getScheme() != null) {
      shown.append(uri.getScheme()).append(':');
    }
    shown.append("//");
    if (uri.getRawUserInfo() != null) {
      shown.append(MASK).append('@');
    }
    shown.append(uri.getHost());
    if (uri.getPort() != -1) {
      shown.append(':').append(uri.getPort());
    }
    if (uri.getRawPath() != null) {
      shown.append(uri.getRawPath());
    }
    if (uri.getRawQuery() != null) {
      shown.append('?').append(queryNames(uri.getRawQuery()));
    }
    if (uri.getRawFragment() != null) {
      shown.append('#').append(MASK);
    }
    return oneLine(shown.toString());
  }

  /**
   * The same for text that may not even parse as a URI (a malformed setting), erring on the side
   * of hiding: everything from after {@code //} up to the last {@code @} is masked, and so are the
   * query values (and any {@code =value} after the authority), the fragment, and query elements
   * without a name. Control characters are escaped, so the result stays on one line.
   */
  public static String endpoint(String text) {
    if (text == null) {
      return "null";
    }
    int start = text.indexOf("//");
    start = start < 0 ? 0 : start + 2;
    String head = text.substring(0, start);
    String rest = text.substring(start);
    int at = rest.lastIndexOf('@');
    if (at >= 0) {
      head = head + MASK + "@";
      rest = rest.substring(at + 1);
    }
    String fragment = "";
    int hash = rest.indexOf('#');
    if (hash >= 0) {
      fragment = "#" + MASK;
      rest = rest.substring(0, hash);
    }
    String query = "";
    int question = rest.indexOf('?');
    if (question >= 0) {
      query = "?" + queryNames(rest.substring(question + 1));
      rest = rest.substring(0, question);
    }
    rest = rest.replaceAll("=[^&/;]*", "=" + MASK); // a query whose '?' was before the '@'
    return oneLine(head + rest + query + fragment);
  }

  private static String queryNames(String query) {
    StringJoiner shown = new StringJoiner("&");
    for (String pair : query.split("&", -1)) {
      int eq = pair.indexOf('=');
      shown.add(eq < 0 ? MASK : pair.substring(0, eq) + "=" + MASK);
    }
    return shown.toString();
  }

  /** {@code key=***,key2=***}: the header names, never their values. */
  public static String headers(Map<String, String> headers) {
    StringJoiner shown = new StringJoiner(",");
    headers.keySet().forEach(name -> shown.add(oneLine(name) + "=" + MASK));
    return shown.toString();
  }

  /**
   * A raw {@code key=value,...} setting, possibly malformed: the names before each {@code =}, each
   * value and each element without {@code =} masked.
   */
  public static String headers(String raw) {
    if (raw == null) {
      return "null";
    }
    StringJoiner shown = new StringJoiner(",");
    for (String pair : raw.split(",", -1)) {
      int eq = pair.indexOf('=');
      shown.add(eq < 0 ? MASK : oneLine(pair.substring(0, eq).trim()) + "=" + MASK);
    }
    return shown.toString();
  }

  /**
   * {@code text} with every occurrence of each secret of at least {@value #MIN_SCRUBBED} characters
   * replaced by {@value #MASK}: for messages that did not come from us (a sender's exception, a
   * collector's answer), which might quote a URL or a header. Shorter secrets are left alone, as
   * masking them would garble every message.
   */
  public static String scrub(String text, java.util.Collection<String> secrets) {
    if (text == null || secrets.isEmpty()) {
      return text;
    }
    String scrubbed = text;
    for (String secret : secrets) {
      if (secret != null && secret.length() >= MIN_SCRUBBED) {
        scrubbed = scrubbed.replace(secret, MASK);
      }
    }
    return scrubbed;
  }

  /**
   * {@code resource} with each secret masked in its string and string-array attributes. The agent's
   * process detector copies the JVM's command line, {@code -D} settings included, into {@code
   * process.command_args} / {@code process.command_line}; what Spanflight exports and publishes
   * (profiles, the OTEP-4719 process context) carries this copy instead.
   */
  public static Resource resource(Resource resource, java.util.Collection<String> secrets) {
    if (secrets.isEmpty()) {
      return resource;
    }
    AttributesBuilder scrubbed = Attributes.builder();
    resource.getAttributes().forEach((key, value) -> put(scrubbed, key, value, secrets));
    return Resource.create(scrubbed.build(), resource.getSchemaUrl());
  }

  @SuppressWarnings("unchecked")
  private static void put(AttributesBuilder out, AttributeKey<?> key, Object value, java.util.Collection<String> secrets) {
    if (key.getType() == AttributeType.STRING) {
      out.put((AttributeKey<String>) key, scrub((String) value, secrets));
    } else if (key.getType() == AttributeType.STRING_ARRAY) {
      List<String> values = new ArrayList<>();
      ((List<String>) value).forEach(v -> values.add(scrub(v, secrets)));
      out.put((AttributeKey<List<String>>) key, values);
    } else {
      out.put((AttributeKey<Object>) key, value);
    }
  }

  /**
   * {@code text} with control characters (line breaks, tabs, escape sequences) written as
   * {@code \n}, {@code \t} or {@code \\uXXXX} (JSON's escapes, {@link JsonString#escape}), so that a
   * setting can never add a line to a log. Quotes and backslashes stay as they are: this is for
   * reading, not JSON.
   */
  public static String oneLine(String text) {
    StringBuilder out = null;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (!Character.isISOControl(c) && c != '\u2028' && c != '\u2029') {
        if (out != null) {
          out.append(c);
        }
        continue;
      }
      if (out == null) {
        out = new StringBuilder(text.length() + 8).append(text, 0, i);
      }
      out.append(JsonString.escape(c));
    }
    return out == null ? text : out.toString();
  }
}
