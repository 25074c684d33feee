package io.spanflight.internal.format;

/**
 * JSON string escapes (RFC 8259): which characters a string literal must escape, and how. One
 * place for every JSON writer of Spanflight (the extension's OTLP/JSON, the report's data) and for
 * the settings that are shown escaped in log lines.
 *
 * <p>The short forms {@code \"}, {@code \\}, {@code \n}, {@code \r}, {@code \t}; any other
 * character as {@code \\uXXXX} in lower-case hex.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class JsonString {
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private JsonString() {}

  /**
   * Whether {@code c} is escaped in a string literal: the quote, the backslash and control
   * characters below U+0020; with {@code htmlSafe} also {@code <}, {@code >}, {@code &} and the
   * JavaScript line separators U+2028 and U+2029, so that no string can close an HTML
   * {@code <script>} element or start markup in it.
   */
  public static boolean needsEscape(char c, boolean htmlSafe) {
    if (c == '"' || c == '\\' || c < 0x20) {
      return true;
    }
    return htmlSafe && (c == '<' || c == '>' || c == '&' || c == '\u2028' || c == '\u2029');
  }

  /** The escape sequence for {@code c}, a short form where JSON has one. */
  public static String escape(char c) {
    switch (c) {
      case '"':
        return "\\\"";
      case '\\':
        return "\\\\";
      case '\n':
        return "\\n";
      case '\r':
        return "\\r";
      case '\t':
        return "\\t";
      default:
        return new String(new char[] {'\\', 'u', HEX[c >> 12 & 0xF], HEX[c >> 8 & 0xF], HEX[c >> 4 & 0xF], HEX[c & 0xF]});
    }
  }

  /** {@code value} as a JSON string literal, quotes included. */
  public static String quote(String value) {
    StringBuilder out = new StringBuilder(value.length() + 2).append('"');
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (needsEscape(c, false)) {
        out.append(escape(c));
      } else {
        out.append(c);
      }
    }
    return out.append('"').toString();
  }
}
