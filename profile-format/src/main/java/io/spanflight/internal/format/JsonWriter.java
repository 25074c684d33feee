package io.spanflight.internal.format;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * A minimal streaming JSON writer: objects, arrays, strings, numbers, booleans and null, with
 * commas placed automatically, onto any {@link Appendable} (a {@code StringBuilder}, a {@code
 * Writer}). Strings are escaped by {@link JsonString}: as RFC 8259 requires, or, from {@link
 * #htmlSafe}, also so that they can sit inside an HTML {@code <script>} element.
 *
 * <p>The extension writes OTLP/JSON with it, the report the data of its HTML page. Nothing here
 * throws a checked exception: an {@code IOException} of the target is rethrown as an {@link
 * UncheckedIOException}, which a caller writing to a file unwraps.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class JsonWriter {
  private final Appendable out;
  private final boolean htmlSafe;
  private boolean needComma;

  private JsonWriter(Appendable out, boolean htmlSafe) {
    this.out = out;
    this.htmlSafe = htmlSafe;
  }

  /** Writes RFC 8259 JSON to {@code out}. */
  public static JsonWriter to(Appendable out) {
    return new JsonWriter(out, false);
  }

  /** Writes JSON for an HTML {@code <script>} element to {@code out}. */
  public static JsonWriter htmlSafe(Appendable out) {
    return new JsonWriter(out, true);
  }

  public JsonWriter beginObject() {
    return token("{", false);
  }

  public JsonWriter endObject() {
    return end('}');
  }

  public JsonWriter beginArray() {
    return token("[", false);
  }

  public JsonWriter endArray() {
    return end(']');
  }

  /** The name of the next member of the current object. */
  public JsonWriter name(String name) {
    value(name);
    append(':');
    needComma = false;
    return this;
  }

  public JsonWriter value(String value) {
    separate();
    string(value);
    needComma = true;
    return this;
  }

  public JsonWriter value(long value) {
    return token(Long.toString(value), true);
  }

  public JsonWriter value(boolean value) {
    return token(Boolean.toString(value), true);
  }

  /** A double; NaN and infinities as the strings protobuf's JSON mapping uses. */
  public JsonWriter value(double value) {
    if (Double.isNaN(value)) {
      return value("NaN");
    }
    if (Double.isInfinite(value)) {
      return value(value > 0 ? "Infinity" : "-Infinity");
    }
    return token(Double.toString(value), true);
  }

  public JsonWriter nullValue() {
    return token("null", true);
  }

  /** Text written as it is (a bracket that opens, a number, a literal), after a comma if due. */
  private JsonWriter token(String text, boolean completesValue) {
    separate();
    append(text);
    needComma = completesValue;
    return this;
  }

  private JsonWriter end(char bracket) {
    append(bracket);
    needComma = true;
    return this;
  }

  private void separate() {
    if (needComma) {
      append(',');
    }
  }

  private void string(String s) {
    append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (JsonString.needsEscape(c, htmlSafe)) {
        append(JsonString.escape(c));
      } else {
        append(c);
      }
    }
    append('"');
  }

  private void append(char c) {
    try {
      out.append(c);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void append(CharSequence s) {
    try {
      out.append(s);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
