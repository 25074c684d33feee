package io.spanflight.smoke.browser;

import io.spanflight.internal.format.JsonString;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small JSON reader and string quoter for the DevTools protocol messages: objects become
 * {@code Map<String, Object>}, arrays {@code List<Object>}, numbers {@code Double} (or {@code
 * Long} when integral and without exponent), plus {@code String}, {@code Boolean} and null.
 *
 * <p>The reader is the smoke tests' own (production code writes JSON, it never reads any); the
 * quoting is profile-format's {@link JsonString}, which production JSON is written with.
 */
public final class Json {
  private final String text;
  private int pos;

  private Json(String text) {
    this.text = text;
  }

  public static Object parse(String text) {
    Json json = new Json(text);
    Object value = json.value();
    json.space();
    if (json.pos != text.length()) {
      throw json.error("trailing characters");
    }
    return value;
  }

  /** {@code value} as a JSON string literal (the escapes of the extension's and report's JSON). */
  public static String quote(String value) {
    return JsonString.quote(value);
  }

  private Object value() {
    space();
    if (pos >= text.length()) {
      throw error("unexpected end");
    }
    char c = text.charAt(pos);
    switch (c) {
      case '{': return object();
      case '[': return array();
      case '"': return string();
      case 't': return literal("true", Boolean.TRUE);
      case 'f': return literal("false", Boolean.FALSE);
      case 'n': return literal("null", null);
      default: return number();
    }
  }

  private Map<String, Object> object() {
    Map<String, Object> map = new LinkedHashMap<>();
    pos++;
    space();
    if (peek('}')) {
      return map;
    }
    do {
      space();
      String key = string();
      space();
      expect(':');
      map.put(key, value());
      space();
    } while (peek(','));
    expect('}');
    return map;
  }

  private List<Object> array() {
    List<Object> list = new ArrayList<>();
    pos++;
    space();
    if (peek(']')) {
      return list;
    }
    do {
      list.add(value());
      space();
    } while (peek(','));
    expect(']');
    return list;
  }

  private String string() {
    expect('"');
    StringBuilder out = new StringBuilder();
    while (true) {
      if (pos >= text.length()) {
        throw error("unterminated string");
      }
      char c = text.charAt(pos++);
      if (c == '"') {
        return out.toString();
      }
      if (c != '\\') {
        out.append(c);
        continue;
      }
      char e = text.charAt(pos++);
      switch (e) {
        case 'n': out.append('\n'); break;
        case 't': out.append('\t'); break;
        case 'r': out.append('\r'); break;
        case 'b': out.append('\b'); break;
        case 'f': out.append('\f'); break;
        case 'u':
          out.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
          pos += 4;
          break;
        default: out.append(e);
      }
    }
  }

  private Object number() {
    int start = pos;
    while (pos < text.length() && "+-0123456789.eE".indexOf(text.charAt(pos)) >= 0) {
      pos++;
    }
    String number = text.substring(start, pos);
    if (number.isEmpty()) {
      throw error("unexpected character");
    }
    if (number.matches("-?\\d{1,18}")) {
      return Long.parseLong(number);
    }
    return Double.parseDouble(number);
  }

  private Object literal(String word, Object value) {
    if (!text.startsWith(word, pos)) {
      throw error("unexpected literal");
    }
    pos += word.length();
    return value;
  }

  private boolean peek(char c) {
    if (pos < text.length() && text.charAt(pos) == c) {
      pos++;
      return true;
    }
    return false;
  }

  private void expect(char c) {
    if (!peek(c)) {
      throw error("expected '" + c + "'");
    }
  }

  private void space() {
    while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
      pos++;
    }
  }

  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException(what + " at " + pos + " in JSON: "
        + text.substring(Math.max(0, pos - 40), Math.min(text.length(), pos + 40)));
  }
}
