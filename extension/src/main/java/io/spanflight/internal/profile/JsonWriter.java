package io.spanflight.internal.profile;

import java.nio.charset.StandardCharsets;

/**
 * A minimal streaming JSON writer: objects, arrays, strings, numbers and booleans, with commas
 * placed automatically. Strings are escaped as RFC 8259 requires (quote, backslash and control
 * characters); everything else is written as UTF-8.
 *
 * <p>Not API: internal to Spanflight.
 */
final class JsonWriter {
  private final StringBuilder out = new StringBuilder(8192);
  private boolean needComma;

  JsonWriter beginObject() {
    separate();
    out.append('{');
    needComma = false;
    return this;
  }

  JsonWriter endObject() {
    out.append('}');
    needComma = true;
    return this;
  }

  JsonWriter beginArray() {
    separate();
    out.append('[');
    needComma = false;
    return this;
  }

  JsonWriter endArray() {
    out.append(']');
    needComma = true;
    return this;
  }

  /** The name of the next member of the current object. */
  JsonWriter name(String name) {
    separate();
    quoted(name);
    out.append(':');
    needComma = false;
    return this;
  }

  JsonWriter value(String value) {
    separate();
    quoted(value);
    needComma = true;
    return this;
  }

  JsonWriter value(long value) {
    separate();
    out.append(value);
    needComma = true;
    return this;
  }

  JsonWriter value(boolean value) {
    separate();
    out.append(value);
    needComma = true;
    return this;
  }

  /** A double; NaN and infinities as the strings protobuf's JSON mapping uses. */
  JsonWriter value(double value) {
    if (Double.isNaN(value)) {
      return value("NaN");
    }
    if (Double.isInfinite(value)) {
      return value(value > 0 ? "Infinity" : "-Infinity");
    }
    separate();
    out.append(value);
    needComma = true;
    return this;
  }

  byte[] toBytes() {
    return out.toString().getBytes(StandardCharsets.UTF_8);
  }

  private void separate() {
    if (needComma) {
      out.append(',');
    }
  }

  private void quoted(String s) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"':
          out.append("\\\"");
          break;
        case '\\':
          out.append("\\\\");
          break;
        case '\n':
          out.append("\\n");
          break;
        case '\r':
          out.append("\\r");
          break;
        case '\t':
          out.append("\\t");
          break;
        default:
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
      }
    }
    out.append('"');
  }
}
