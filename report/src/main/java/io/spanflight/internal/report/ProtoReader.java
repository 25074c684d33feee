package io.spanflight.internal.report;

import io.spanflight.internal.tables.LongList;
import java.nio.charset.StandardCharsets;

/**
 * A minimal protobuf reader over a byte array: tags, varints, fixed64, length-delimited fields
 * (strings, bytes, nested messages, packed repeated fields), and skipping of unknown fields. It
 * reads what the OTLP profiles messages use and nothing more; groups (wire types 3 and 4) are
 * refused. Malformed input throws {@link MalformedProfileException} with the byte offset.
 *
 * <p>Not API: internal to Spanflight.
 */
final class ProtoReader {
  static final int VARINT = 0;
  static final int FIXED64 = 1;
  static final int LENGTH = 2;
  static final int FIXED32 = 5;

  private final byte[] buf;
  private final int limit;
  private int pos;
  private int lastTag;

  ProtoReader(byte[] buf) {
    this(buf, 0, buf.length);
  }

  private ProtoReader(byte[] buf, int offset, int limit) {
    this.buf = buf;
    this.pos = offset;
    this.limit = limit;
  }

  /** Whether another field follows. */
  boolean hasMore() {
    return pos < limit;
  }

  /** Reads the next tag and returns its field number; {@link #wireType()} tells its wire type. */
  int nextField() throws MalformedProfileException {
    long tag = readVarint();
    if (tag >>> 3 == 0 || tag > Integer.MAX_VALUE) {
      throw malformed("invalid tag " + tag);
    }
    lastTag = (int) tag;
    return lastTag >>> 3;
  }

  int wireType() {
    return lastTag & 7;
  }

  long readVarint() throws MalformedProfileException {
    long result = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos >= limit) {
        throw malformed("truncated varint");
      }
      byte b = buf[pos++];
      result |= (long) (b & 0x7F) << shift;
      if (b >= 0) {
        return result;
      }
    }
    throw malformed("varint longer than 10 bytes");
  }

  /** A varint that must fit an int32 (indexes into dictionary tables are int32). */
  int readInt() throws MalformedProfileException {
    return (int) readVarint();
  }

  long readFixed64() throws MalformedProfileException {
    require(8);
    long value = 0;
    for (int i = 0; i < 8; i++) {
      value |= (buf[pos++] & 0xFFL) << (8 * i);
    }
    return value;
  }

  String readString() throws MalformedProfileException {
    int length = readLength();
    String value = new String(buf, pos, length, StandardCharsets.UTF_8);
    pos += length;
    return value;
  }

  byte[] readBytes() throws MalformedProfileException {
    int length = readLength();
    byte[] value = new byte[length];
    System.arraycopy(buf, pos, value, 0, length);
    pos += length;
    return value;
  }

  /** The body of a nested message as its own reader; this reader moves past it. */
  ProtoReader readMessage() throws MalformedProfileException {
    int length = readLength();
    ProtoReader nested = new ProtoReader(buf, pos, pos + length);
    pos += length;
    return nested;
  }

  /**
   * Appends the values of a repeated varint field to {@code out}: packed (wire type 2, several
   * values) or not (wire type 0, one value), as protobuf parsers must accept both.
   */
  void readVarints(LongList out) throws MalformedProfileException {
    if (wireType() == VARINT) {
      out.add(readVarint());
      return;
    }
    expect(LENGTH);
    ProtoReader packed = readMessage();
    while (packed.hasMore()) {
      out.add(packed.readVarint());
    }
  }

  /** Appends the values of a repeated fixed64 field, packed or not. */
  void readFixed64s(LongList out) throws MalformedProfileException {
    if (wireType() == FIXED64) {
      out.add(readFixed64());
      return;
    }
    expect(LENGTH);
    ProtoReader packed = readMessage();
    while (packed.hasMore()) {
      out.add(packed.readFixed64());
    }
  }

  /** Skips the value of the field whose tag was just read. */
  void skipField() throws MalformedProfileException {
    switch (wireType()) {
      case VARINT:
        readVarint();
        break;
      case FIXED64:
        require(8);
        pos += 8;
        break;
      case LENGTH: {
        int length = readLength(); // not "pos += readLength()": that would add to the old pos
        pos += length;
        break;
      }
      case FIXED32:
        require(4);
        pos += 4;
        break;
      default:
        throw malformed("unsupported wire type " + wireType());
    }
  }

  /** Fails unless the field just read has wire type {@code expected}. */
  void expect(int expected) throws MalformedProfileException {
    if (wireType() != expected) {
      throw malformed("field " + (lastTag >>> 3) + " has wire type " + wireType() + ", expected " + expected);
    }
  }

  private int readLength() throws MalformedProfileException {
    expect(LENGTH);
    long length = readVarint();
    if (length < 0 || length > limit - pos) {
      throw malformed("length " + length + " runs past the end of its message");
    }
    return (int) length;
  }

  private void require(int bytes) throws MalformedProfileException {
    if (limit - pos < bytes) {
      throw malformed("truncated field");
    }
  }

  private MalformedProfileException malformed(String what) {
    return new MalformedProfileException(what + " at byte " + pos);
  }
}
