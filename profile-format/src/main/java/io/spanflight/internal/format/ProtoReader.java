package io.spanflight.internal.format;

import io.spanflight.internal.tables.LongList;
import java.nio.charset.StandardCharsets;

/**
 * A minimal protobuf reader over a byte array: tags, varints, fixed64, length-delimited fields
 * (strings, bytes, nested messages, packed repeated fields), and skipping of unknown fields. It
 * reads what the OTLP profiles and OpAMP messages use and nothing more; groups (wire types 3 and
 * 4) are refused. Every length prefix is checked against what is left of its message before
 * anything is allocated, so no input can ask for more memory than its own size. Malformed input
 * throws {@link MalformedProtoException} with the byte offset.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class ProtoReader {
  public static final int VARINT = 0;
  public static final int FIXED64 = 1;
  public static final int LENGTH = 2;
  public static final int FIXED32 = 5;

  private final byte[] buf;
  private final int limit;
  private int pos;
  private int lastTag;

  public ProtoReader(byte[] buf) {
    this(buf, 0, buf.length);
  }

  private ProtoReader(byte[] buf, int offset, int limit) {
    this.buf = buf;
    this.pos = offset;
    this.limit = limit;
  }

  /** Whether another field follows. */
  public boolean hasMore() {
    return pos < limit;
  }

  /** Reads the next tag and returns its field number; {@link #wireType()} tells its wire type. */
  public int nextField() throws MalformedProtoException {
    long tag = readVarint();
    if (tag >>> 3 == 0 || tag > Integer.MAX_VALUE) {
      throw malformed("invalid tag " + tag);
    }
    lastTag = (int) tag;
    return lastTag >>> 3;
  }

  public int wireType() {
    return lastTag & 7;
  }

  public long readVarint() throws MalformedProtoException {
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
  public int readInt() throws MalformedProtoException {
    return (int) readVarint();
  }

  public long readFixed64() throws MalformedProtoException {
    require(8);
    long value = 0;
    for (int i = 0; i < 8; i++) {
      value |= (buf[pos++] & 0xFFL) << (8 * i);
    }
    return value;
  }

  public String readString() throws MalformedProtoException {
    int length = readLength();
    String value = new String(buf, pos, length, StandardCharsets.UTF_8);
    pos += length;
    return value;
  }

  public byte[] readBytes() throws MalformedProtoException {
    int length = readLength();
    byte[] value = new byte[length];
    System.arraycopy(buf, pos, value, 0, length);
    pos += length;
    return value;
  }

  /** The body of a nested message as its own reader; this reader moves past it. */
  public ProtoReader readMessage() throws MalformedProtoException {
    int length = readLength();
    ProtoReader nested = new ProtoReader(buf, pos, pos + length);
    pos += length;
    return nested;
  }

  /**
   * Appends the values of a repeated varint field to {@code out}: packed (wire type 2, several
   * values) or not (wire type 0, one value), as protobuf parsers must accept both.
   */
  public void readVarints(LongList out) throws MalformedProtoException {
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
  public void readFixed64s(LongList out) throws MalformedProtoException {
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
  public void skipField() throws MalformedProtoException {
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
  public void expect(int expected) throws MalformedProtoException {
    if (wireType() != expected) {
      throw malformed("field " + (lastTag >>> 3) + " has wire type " + wireType() + ", expected " + expected);
    }
  }

  private int readLength() throws MalformedProtoException {
    expect(LENGTH);
    long length = readVarint();
    if (length < 0 || length > limit - pos) {
      throw malformed("length " + length + " runs past the end of its message");
    }
    return (int) length;
  }

  private void require(int bytes) throws MalformedProtoException {
    if (limit - pos < bytes) {
      throw malformed("truncated field");
    }
  }

  private MalformedProtoException malformed(String what) {
    return new MalformedProtoException(what + " at byte " + pos);
  }
}
