package io.spanflight.smoke.outside;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One thread's OTEP-4947 record as read from outside: the OS thread, its TLS pointer and, when
 * that is not NULL, the record's 28-byte header (trace id 0-15, span id 16-23, valid 24, trace
 * flags 25, attrs_data_size 26-27 little-endian) and attribute bytes (packed {key index, length,
 * UTF-8 value} entries, keys named by the process context's key map).
 */
public record ThreadRecord(long lwp, String threadName, long pointer, byte[] header, byte[] attributes) {
  private static final HexFormat HEX = HexFormat.of();

  /** Parses an {@code SFREC} line of thread_records.py. */
  static ThreadRecord parse(String line) {
    String[] fields = line.split(" ", 6);
    if (fields.length < 5 || !fields[0].equals("SFREC")) {
      throw new IllegalArgumentException("not an SFREC line: " + line);
    }
    byte[] header = fields[3].equals("-") ? null : HEX.parseHex(fields[3]);
    if (header != null && header.length != 28) {
      throw new IllegalArgumentException("a header of " + header.length + " bytes: " + line);
    }
    byte[] attributes = fields[4].equals("-") ? new byte[0] : HEX.parseHex(fields[4]);
    return new ThreadRecord(Long.parseLong(fields[1]), fields.length == 6 ? fields[5] : "",
        Long.parseUnsignedLong(fields[2], 16), header, attributes);
  }

  /** The valid flag is 1: the thread runs inside the span the record names. */
  public boolean valid() {
    return header != null && header[24] == 1;
  }

  public String traceId() {
    return header == null ? "" : HEX.formatHex(header, 0, 16);
  }

  public String spanId() {
    return header == null ? "" : HEX.formatHex(header, 16, 24);
  }

  public int traceFlags() {
    return header == null ? -1 : header[25] & 0xff;
  }

  public int attributesSize() {
    return header == null ? 0 : (header[26] & 0xff) | (header[27] & 0xff) << 8;
  }

  /** The attributes, keys looked up in {@code keyMap}; throws on an entry that does not decode. */
  public Map<String, String> attributes(List<String> keyMap) {
    if (attributes.length != attributesSize()) {
      throw new IllegalStateException("attrs_data_size " + attributesSize() + " but " + attributes.length + " bytes read");
    }
    Map<String, String> decoded = new LinkedHashMap<>();
    int at = 0;
    while (at < attributes.length) {
      if (at + 2 > attributes.length) {
        throw new IllegalStateException("an entry header cut at byte " + at + " of " + attributes.length);
      }
      int key = attributes[at] & 0xff;
      int length = attributes[at + 1] & 0xff;
      if (key >= keyMap.size() || at + 2 + length > attributes.length) {
        throw new IllegalStateException("entry at byte " + at + ": key index " + key + " of " + keyMap.size()
            + " keys, value of " + length + " bytes in " + (attributes.length - at - 2) + " left");
      }
      decoded.put(keyMap.get(key), new String(attributes, at + 2, length, StandardCharsets.UTF_8));
      at += 2 + length;
    }
    return decoded;
  }

  @Override
  public String toString() {
    return "thread " + lwp + " '" + threadName + "': " + (pointer == 0 ? "no record"
        : (valid() ? "valid" : "not valid") + " trace " + traceId() + " span " + spanId() + " flags "
            + traceFlags() + " attrs " + HEX.formatHex(attributes));
  }
}
