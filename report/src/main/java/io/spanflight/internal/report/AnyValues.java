package io.spanflight.internal.report;

import io.spanflight.internal.format.MalformedProtoException;
import io.spanflight.internal.format.ProtoReader;

/**
 * Reads an OTLP {@code AnyValue} as text: strings as they are (also {@code string_value_strindex}
 * when a string table is given), booleans, integers and doubles in their usual notation, arrays
 * as {@code [a, b]}; key-value lists and bytes as empty text (the report does not show them).
 * Arrays nested deeper than {@link ReportLimits#MAX_VALUE_DEPTH} are refused (no stack overflow).
 *
 * <p>Not API: internal to Spanflight.
 */
final class AnyValues {
  private AnyValues() {}

  /**
   * @param strings the dictionary's string table, or null where {@code string_value_strindex} is
   *     not allowed (or the table is not known yet, then the index is kept as {@code #<index>})
   */
  static String text(ProtoReader in, String[] strings) throws MalformedProtoException {
    return text(in, strings, 0);
  }

  private static String text(ProtoReader in, String[] strings, int depth) throws MalformedProtoException {
    if (depth > ReportLimits.MAX_VALUE_DEPTH) {
      throw new MalformedProfileException("attribute value nested more than " + ReportLimits.MAX_VALUE_DEPTH + " arrays deep");
    }
    String value = "";
    while (in.hasMore()) {
      switch (in.nextField()) {
        case 1: value = in.readString(); break;
        case 2: value = String.valueOf(in.readVarint() != 0); break;
        case 3: value = String.valueOf(in.readVarint()); break;
        case 4: value = String.valueOf(Double.longBitsToDouble(in.readFixed64())); break;
        case 5: value = array(in.readMessage(), strings, depth); break;
        case 8: {
          int index = in.readInt();
          if (strings == null) {
            value = "#" + index;
          } else {
            RequestDecoder.check("string_value_strindex", index, strings.length);
            value = strings[index];
          }
          break;
        }
        default: in.skipField();
      }
    }
    return value;
  }

  private static String array(ProtoReader in, String[] strings, int depth) throws MalformedProtoException {
    StringBuilder out = new StringBuilder("[");
    while (in.hasMore()) {
      if (in.nextField() == 1) {
        String element = text(in.readMessage(), strings, depth + 1);
        if (out.length() > ReportLimits.MAX_VALUE_CHARS) {
          continue; // an index may name a long string many times over: the text stays short
        }
        if (out.length() > 1) {
          out.append(", ");
        }
        out.append(element, 0, Math.min(element.length(), ReportLimits.MAX_VALUE_CHARS));
      } else {
        in.skipField();
      }
    }
    return out.append(']').toString();
  }
}
