package io.spanflight.internal.report;

import java.io.IOException;
import java.io.Writer;

/**
 * A streaming JSON writer for data embedded in an HTML {@code <script>} element: besides what RFC
 * 8259 requires, it escapes {@code <}, {@code >}, {@code &} and the JavaScript line separators,
 * so no string can close the element or start markup. Commas are placed automatically.
 *
 * <p>Not API: internal to Spanflight.
 */
final class JsonOut {
  private static final char[] HEX = "0123456789abcdef".toCharArray();
  private final Writer out;
  private boolean needComma;

  JsonOut(Writer out) {
    this.out = out;
  }

  JsonOut beginObject() throws IOException {
    separate();
    out.write('{');
    needComma = false;
    return this;
  }

  JsonOut endObject() throws IOException {
    out.write('}');
    needComma = true;
    return this;
  }

  JsonOut beginArray() throws IOException {
    separate();
    out.write('[');
    needComma = false;
    return this;
  }

  JsonOut endArray() throws IOException {
    out.write(']');
    needComma = true;
    return this;
  }

  JsonOut name(String name) throws IOException {
    separate();
    string(name);
    out.write(':');
    needComma = false;
    return this;
  }

  JsonOut value(String value) throws IOException {
    separate();
    string(value);
    needComma = true;
    return this;
  }

  JsonOut value(long value) throws IOException {
    separate();
    out.write(Long.toString(value));
    needComma = true;
    return this;
  }

  JsonOut nullValue() throws IOException {
    separate();
    out.write("null");
    needComma = true;
    return this;
  }

  private void separate() throws IOException {
    if (needComma) {
      out.write(',');
    }
  }

  private void string(String s) throws IOException {
    out.write('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"': out.write("\\\""); break;
        case '\\': out.write("\\\\"); break;
        case '\n': out.write("\\n"); break;
        case '\r': out.write("\\r"); break;
        case '\t': out.write("\\t"); break;
        default:
          if (c < 0x20 || c == '<' || c == '>' || c == '&' || c == '\u2028' || c == '\u2029') {
            out.write("\\u");
            out.write(HEX[c >> 12 & 0xF]);
            out.write(HEX[c >> 8 & 0xF]);
            out.write(HEX[c >> 4 & 0xF]);
            out.write(HEX[c & 0xF]);
          } else {
            out.write(c);
          }
      }
    }
    out.write('"');
  }
}
