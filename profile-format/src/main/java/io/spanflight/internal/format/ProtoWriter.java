package io.spanflight.internal.format;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A minimal protobuf writer for the few wire types OTLP profiles and OpAMP need. Nested messages
 * are written in place: {@link #begin} remembers where the body starts, {@link #end} measures it
 * and inserts the length prefix in front (one copy of the body per nesting level). Like the
 * official serializer, callers skip fields that hold their default value; the output is
 * byte-identical to protobuf-java's for the same field order.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class ProtoWriter {
  private static final int WIRE_VARINT = 0;
  private static final int WIRE_FIXED64 = 1;
  private static final int WIRE_LENGTH = 2;

  private byte[] buf = new byte[8192];
  private int pos;
  private int[] starts = new int[16];
  private int depth;

  /** Starts a nested message (or a packed field) with the given field number. */
  public ProtoWriter begin(int field) {
    tag(field, WIRE_LENGTH);
    if (depth == starts.length) {
      starts = Arrays.copyOf(starts, depth * 2);
    }
    starts[depth++] = pos;
    return this;
  }

  /** Ends the innermost {@link #begin}: writes its length in front of its body. */
  public ProtoWriter end() {
    int start = starts[--depth];
    int length = pos - start;
    int prefix = varintSize(length);
    ensure(prefix);
    System.arraycopy(buf, start, buf, start + prefix, length);
    int saved = pos + prefix;
    pos = start;
    varint(length);
    pos = saved;
    return this;
  }

  /** A varint field (int32, int64, uint64); skipped when zero. */
  public ProtoWriter varintField(int field, long value) {
    if (value != 0) {
      tag(field, WIRE_VARINT);
      varint(value);
    }
    return this;
  }

  public ProtoWriter boolField(int field, boolean value) {
    return varintField(field, value ? 1 : 0);
  }

  /** A varint member of a oneof: written even when zero, as protobuf does for set oneofs. */
  public ProtoWriter oneofVarint(int field, long value) {
    tag(field, WIRE_VARINT);
    varint(value);
    return this;
  }

  /** A double member of a oneof: written even when zero. */
  public ProtoWriter oneofDouble(int field, double value) {
    tag(field, WIRE_FIXED64);
    fixed64(Double.doubleToRawLongBits(value));
    return this;
  }

  /** A fixed64 field; skipped when zero. */
  public ProtoWriter fixed64Field(int field, long value) {
    if (value != 0) {
      tag(field, WIRE_FIXED64);
      fixed64(value);
    }
    return this;
  }

  public ProtoWriter doubleField(int field, double value) {
    if (Double.doubleToRawLongBits(value) != 0) {
      tag(field, WIRE_FIXED64);
      fixed64(Double.doubleToRawLongBits(value));
    }
    return this;
  }

  /** A string field; skipped when empty. */
  public ProtoWriter stringField(int field, String value) {
    if (!value.isEmpty()) {
      bytesField(field, value.getBytes(StandardCharsets.UTF_8));
    }
    return this;
  }

  /** One element of a repeated string field, or a string member of a oneof: written even when empty. */
  public ProtoWriter repeatedString(int field, String value) {
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    tag(field, WIRE_LENGTH);
    varint(bytes.length);
    raw(bytes);
    return this;
  }

  /** A bytes field; skipped when empty. */
  public ProtoWriter bytesField(int field, byte[] value) {
    if (value.length > 0) {
      tag(field, WIRE_LENGTH);
      varint(value.length);
      raw(value);
    }
    return this;
  }

  /** An empty element of a repeated message field (the zero value at index 0 of a table). */
  public ProtoWriter emptyMessage(int field) {
    tag(field, WIRE_LENGTH);
    varint(0);
    return this;
  }

  /** A packed repeated int32 field; skipped when {@code count} is zero. */
  public ProtoWriter packedVarints(int field, int[] values, int count) {
    if (count > 0) {
      begin(field);
      for (int i = 0; i < count; i++) {
        varint(values[i]);
      }
      end();
    }
    return this;
  }

  /** A packed repeated int64 field; skipped when {@code count} is zero. */
  public ProtoWriter packedVarints(int field, long[] values, int count) {
    if (count > 0) {
      begin(field);
      for (int i = 0; i < count; i++) {
        varint(values[i]);
      }
      end();
    }
    return this;
  }

  /** A packed repeated fixed64 field; skipped when {@code count} is zero. */
  public ProtoWriter packedFixed64(int field, long[] values, int count) {
    if (count > 0) {
      tag(field, WIRE_LENGTH);
      varint(8L * count);
      for (int i = 0; i < count; i++) {
        fixed64(values[i]);
      }
    }
    return this;
  }

  public byte[] toByteArray() {
    if (depth != 0) {
      throw new IllegalStateException(depth + " nested message(s) not ended");
    }
    return Arrays.copyOf(buf, pos);
  }

  private void tag(int field, int wireType) {
    varint(((long) field << 3) | wireType);
  }

  private void varint(long value) {
    ensure(10);
    while ((value & ~0x7FL) != 0) {
      buf[pos++] = (byte) ((value & 0x7F) | 0x80);
      value >>>= 7;
    }
    buf[pos++] = (byte) value;
  }

  private void fixed64(long value) {
    ensure(8);
    for (int i = 0; i < 8; i++) {
      buf[pos++] = (byte) (value >>> (8 * i));
    }
  }

  private void raw(byte[] bytes) {
    ensure(bytes.length);
    System.arraycopy(bytes, 0, buf, pos, bytes.length);
    pos += bytes.length;
  }

  private void ensure(int extra) {
    if (pos + extra > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(buf.length * 2, pos + extra));
    }
  }

  private static int varintSize(long value) {
    int size = 1;
    while ((value & ~0x7FL) != 0) {
      value >>>= 7;
      size++;
    }
    return size;
  }
}
