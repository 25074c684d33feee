package io.spanflight.internal.report;

/**
 * Reads an OTLP {@code AnyValue} as text: strings as they are (also {@code string_value_strindex}
 * when a string table is given), booleans, integers and doubles in their usual notation, arrays
 * as {@code [a, b]}; key-value lists and bytes as empty text (the report does not show them).
 *
 * <p>Not API: internal to Spanflight.
 */
final class AnyValues {
  private AnyValues() {}

  /**
   * @param strings the dictionary's string table, or null where {@code string_value_strindex} is
   *     not allowed (or the table is not known yet, then the index is kept as {@code #<index>})
   */
  static String text(ProtoReader in, String[] strings) throws MalformedProfileException {
    String value = "";
    while (in.hasMore()) {
      switch (in.nextField()) {
        case 1: value = in.readString(); break;
        case 2: value = String.valueOf(in.readVarint() != 0); break;
        case 3: value = String.valueOf(in.readVarint()); break;
        case 4: value = String.valueOf(Double.longBitsToDouble(in.readFixed64())); break;
        case 5: value = array(in.readMessage(), strings); break;
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

  private static String array(ProtoReader in, String[] strings) throws MalformedProfileException {
    StringBuilder out = new StringBuilder("[");
    while (in.hasMore()) {
      if (in.nextField() == 1) {
        if (out.length() > 1) {
          out.append(", ");
        }
        out.append(text(in.readMessage(), strings));
      } else {
        in.skipField();
      }
    }
    return out.append(']').toString();
  }
}
