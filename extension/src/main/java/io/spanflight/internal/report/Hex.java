package io.spanflight.internal.report;

/**
 * Lower-case hex of trace and span ids, as OpenTelemetry prints them.
 *
 * <p>Not API: internal to Spanflight.
 */
final class Hex {
  private static final char[] DIGITS = "0123456789abcdef".toCharArray();

  private Hex() {}

  static String of(byte[] bytes) {
    char[] out = new char[bytes.length * 2];
    for (int i = 0; i < bytes.length; i++) {
      out[2 * i] = DIGITS[(bytes[i] >> 4) & 0xF];
      out[2 * i + 1] = DIGITS[bytes[i] & 0xF];
    }
    return new String(out);
  }
}
