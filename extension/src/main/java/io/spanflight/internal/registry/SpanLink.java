package io.spanflight.internal.registry;

/**
 * The span a profile sample links to, as three numbers: a trace id (two halves) and a span id.
 * Kept instead of the OpenTelemetry {@code SpanContext} and its two hex strings, so that what a
 * each interval's profile dictionary holds for seconds is one small object (context records keep
 * the three numbers as fields of their own).
 *
 * <p>Not API: internal to Spanflight.
 */
public record SpanLink(long traceIdHigh, long traceIdLow, long spanId) {
  private static final char[] DIGITS = "0123456789abcdef".toCharArray();
  /** The value of each hex digit by its char, for the chars below 128 (others are not digits). */
  private static final byte[] VALUES = new byte[128];

  static {
    java.util.Arrays.fill(VALUES, (byte) -1);
    for (int i = 0; i < 16; i++) {
      VALUES[DIGITS[i]] = (byte) i;
      VALUES[Character.toUpperCase(DIGITS[i])] = (byte) i;
    }
  }

  /** 16 bytes, big-endian, as OTLP carries trace ids. */
  public byte[] traceIdBytes() {
    return traceIdBytes(traceIdHigh, traceIdLow);
  }

  static byte[] traceIdBytes(long high, long low) {
    byte[] bytes = new byte[16];
    putLong(bytes, 0, high);
    putLong(bytes, 8, low);
    return bytes;
  }

  /** 8 bytes, big-endian. */
  public byte[] spanIdBytes() {
    return bytesOf(spanId);
  }

  public String traceIdHex() {
    return hex(traceIdHigh) + hex(traceIdLow);
  }

  public String spanIdHex() {
    return hex(spanId);
  }

  static byte[] bytesOf(long value) {
    byte[] bytes = new byte[8];
    putLong(bytes, 0, value);
    return bytes;
  }

  /** 16 lower-case hex digits. */
  static String hex(long value) {
    char[] out = new char[16];
    for (int i = 15; i >= 0; i--) {
      out[i] = DIGITS[(int) (value & 0xF)];
      value >>>= 4;
    }
    return new String(out);
  }

  /**
   * The 16 hex digits of {@code hex} from {@code from} on, as an unsigned 64-bit number (once per
   * span interned, on the application's thread: a table, not {@code Character.digit}). The ids of
   * a valid span context are hex; a char that is not a hex digit reads as 0.
   */
  static long parseHex(String hex, int from) {
    long value = 0;
    for (int i = from; i < from + 16; i++) {
      char c = hex.charAt(i);
      int digit = c < 128 ? VALUES[c] : -1;
      value = (value << 4) | (digit < 0 ? 0 : digit);
    }
    return value;
  }

  private static void putLong(byte[] bytes, int at, long value) {
    for (int i = 7; i >= 0; i--) {
      bytes[at + i] = (byte) value;
      value >>>= 8;
    }
  }
}
