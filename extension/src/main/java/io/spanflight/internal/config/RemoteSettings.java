package io.spanflight.internal.config;

import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Run-time settings given as text, by a remote configuration (OpAMP) or the control MBean: one
 * {@code otel.spanflight.<key>=<value>} per line, {@code #} comments and blank lines allowed, and
 * {@value #TIME_BOX} (how long the settings last; remote only). Only the keys that can change at
 * run time ({@link RemoteLimits#group}) are accepted; every other line is an error that names the
 * line. Nothing here checks a value's form: the configuration's own readers do that next, so that
 * a bad value gets the same message as at start.
 *
 * <p>Not API: internal to Spanflight.
 *
 * @param values the settings, in the order given
 * @param timeBox how long they last, or null for "until replaced"
 */
public record RemoteSettings(Map<String, String> values, Duration timeBox) {
  public static final String TIME_BOX = "time.box";
  /** The longest text accepted, in bytes (UTF-8). */
  public static final int MAX_BYTES = 64 * 1024;
  /** The most lines accepted, comments included. */
  public static final int MAX_LINES = 200;
  /** Shown for a key that is not one: keys are short. */
  private static final int MAX_KEY_SHOWN = 100;

  public static final RemoteSettings NONE = new RemoteSettings(Map.of(), null);

  /**
   * The settings {@code body} holds; each problem adds one single-line message to {@code errors}
   * (then the result must not be used).
   */
  public static RemoteSettings parse(byte[] body, List<String> errors) {
    if (body.length > MAX_BYTES) {
      errors.add("the settings are " + body.length + " bytes long: at most " + MAX_BYTES + " are accepted");
      return NONE;
    }
    String text;
    try {
      text = StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(body))
          .toString();
    } catch (CharacterCodingException e) {
      errors.add("the settings are not UTF-8 text");
      return NONE;
    }
    return parse(text, errors);
  }

  /** As {@link #parse(byte[], List)}, from text. */
  public static RemoteSettings parse(String text, List<String> errors) {
    String[] lines = text.split("\r?\n", -1);
    if (lines.length > MAX_LINES) {
      errors.add("the settings have " + lines.length + " lines: at most " + MAX_LINES + " are accepted");
      return NONE;
    }
    Map<String, String> values = new LinkedHashMap<>();
    Duration timeBox = null;
    Set<String> known = KnownKeys.all();
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i].strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      int eq = line.indexOf('=');
      String key = eq < 0 ? line : line.substring(0, eq).strip();
      String value = eq < 0 ? "" : line.substring(eq + 1).strip();
      String where = "line " + (i + 1) + ": ";
      if (eq < 0) {
        errors.add(where + "'" + shown(line) + "' is not key=value");
      } else if (values.containsKey(key) || (key.equals(TIME_BOX) && timeBox != null)) {
        errors.add(where + key + " is set twice");
      } else if (key.equals(TIME_BOX)) {
        timeBox = Settings.parseDuration(value);
        if (timeBox == null || timeBox.isZero() || timeBox.compareTo(Duration.ofDays(7)) > 0) {
          errors.add(new ConfigError(TIME_BOX, value, "a duration between 1s and 168h, like 10m or 1h").getMessage());
          timeBox = Duration.ZERO;
        }
      } else if (RemoteLimits.group(key) != null) {
        values.put(key, value);
      } else if (known.contains(key)) {
        errors.add(where + key + " is read at start only: it cannot change at run time");
      } else {
        errors.add(where + "unknown key " + shown(key) + ": did you mean " + UnknownKeys.nearest(key, known) + "?");
      }
    }
    return new RemoteSettings(Collections.unmodifiableMap(values), timeBox);
  }

  private static String shown(String text) {
    String oneLine = Redacted.oneLine(text);
    return oneLine.length() <= MAX_KEY_SHOWN ? oneLine : oneLine.substring(0, MAX_KEY_SHOWN) + "...";
  }
}
