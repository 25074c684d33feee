package io.spanflight.internal.jfr.chunk;

import java.nio.charset.StandardCharsets;

/**
 * Reads the values of a JFR chunk from a byte range held in memory: JFR's variable-length
 * integers (7 bits per byte, the ninth byte whole), raw big-endian numbers, and strings in their
 * six encodings. Every read is bounded by the range; one past it is a {@link ChunkFormatException}
 * naming the position, never an index error.
 *
 * <p>Positions are offsets in the chunk; the range held starts at {@link #start()}.
 *
 * <p>Not API: internal to Spanflight.
 */
final class ChunkInput {
  private static final byte STRING_NULL = 0;
  private static final byte STRING_EMPTY = 1;
  private static final byte STRING_CONSTANT = 2;
  private static final byte STRING_UTF8 = 3;
  private static final byte STRING_CHARS = 4;
  private static final byte STRING_LATIN1 = 5;

  private final byte[] bytes;
  private final long start;
  private final int length;
  private int index;
  private long lastStringReference = -1;

  /** Reads {@code bytes[0..length)}, which hold the chunk from offset {@code start} on. */
  ChunkInput(byte[] bytes, long start, int length) {
    this.bytes = bytes;
    this.start = start;
    this.length = length;
  }

  long start() {
    return start;
  }

  /** The chunk offset just past the range held. */
  long end() {
    return start + length;
  }

  long position() {
    return start + index;
  }

  void position(long position) throws ChunkFormatException {
    if (position < start || position > end()) {
      throw new ChunkFormatException("position " + position + " is outside the bytes read ["
          + start + ", " + end() + ")");
    }
    index = (int) (position - start);
  }

  /** Bytes left in the range. */
  long remaining() {
    return length - index;
  }

  void skip(long count) throws ChunkFormatException {
    require(count);
    index += (int) count;
  }

  byte readByte() throws ChunkFormatException {
    require(1);
    return bytes[index++];
  }

  /** A JFR variable-length integer (also how JFR writes int, short, char and references). */
  long readVarLong() throws ChunkFormatException {
    long value = 0;
    for (int shift = 0; shift < 56; shift += 7) {
      byte b = readByte();
      value |= (b & 0x7FL) << shift;
      if (b >= 0) {
        return value;
      }
    }
    return value | (readByte() & 0xFFL) << 56;
  }

  /** A variable-length integer that must lie in {@code [0, max]}; {@code what} names it. */
  int readCount(String what, int max) throws ChunkFormatException {
    long position = position();
    long value = readVarLong();
    if (value < 0 || value > max) {
      throw new ChunkFormatException(what + " " + value + " at " + position + " is outside [0, " + max + "]");
    }
    return (int) value;
  }

  long readRawLong() throws ChunkFormatException {
    return (long) readRawInt() << 32 | (readRawInt() & 0xFFFFFFFFL);
  }

  int readRawInt() throws ChunkFormatException {
    require(4);
    int value = (bytes[index] & 0xFF) << 24 | (bytes[index + 1] & 0xFF) << 16
        | (bytes[index + 2] & 0xFF) << 8 | bytes[index + 3] & 0xFF;
    index += 4;
    return value;
  }

  short readRawShort() throws ChunkFormatException {
    require(2);
    short value = (short) ((bytes[index] & 0xFF) << 8 | bytes[index + 1] & 0xFF);
    index += 2;
    return value;
  }

  /**
   * A string value: its text, {@code null} for the null string, or, for a reference into the
   * chunk's string pool, {@code null} with {@link #lastStringReference()} set.
   */
  String readString() throws ChunkFormatException {
    long position = position();
    lastStringReference = -1;
    byte encoding = readByte();
    switch (encoding) {
      case STRING_NULL:
        return null;
      case STRING_EMPTY:
        return "";
      case STRING_CONSTANT:
        lastStringReference = readVarLong();
        return null;
      case STRING_UTF8:
      case STRING_LATIN1: {
        int size = readCount("string length", (int) Math.min(remaining(), Integer.MAX_VALUE));
        String text = new String(bytes, index, size,
            encoding == STRING_UTF8 ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
        index += size;
        return text;
      }
      case STRING_CHARS: {
        int size = readCount("string length", (int) Math.min(remaining(), Integer.MAX_VALUE));
        char[] chars = new char[size];
        for (int i = 0; i < size; i++) {
          chars[i] = (char) readVarLong();
        }
        return new String(chars);
      }
      default:
        throw new ChunkFormatException("string encoding " + encoding + " at " + position + " is not one JFR writes");
    }
  }

  /** Passes over a string value without making it. */
  void skipString() throws ChunkFormatException {
    long position = position();
    byte encoding = readByte();
    switch (encoding) {
      case STRING_NULL:
      case STRING_EMPTY:
        return;
      case STRING_CONSTANT:
        readVarLong();
        return;
      case STRING_UTF8:
      case STRING_LATIN1:
        skip(readCount("string length", (int) Math.min(remaining(), Integer.MAX_VALUE)));
        return;
      case STRING_CHARS: {
        int size = readCount("string length", (int) Math.min(remaining(), Integer.MAX_VALUE));
        for (int i = 0; i < size; i++) {
          readVarLong();
        }
        return;
      }
      default:
        throw new ChunkFormatException("string encoding " + encoding + " at " + position + " is not one JFR writes");
    }
  }

  /** The string-pool key of the last {@link #readString()}, or -1 when it was not a reference. */
  long lastStringReference() {
    return lastStringReference;
  }

  private void require(long count) throws ChunkFormatException {
    if (count < 0 || count > length - index) {
      throw new ChunkFormatException("reading " + count + " bytes at " + position() + " passes the end "
          + end() + " of the bytes read");
    }
  }
}
