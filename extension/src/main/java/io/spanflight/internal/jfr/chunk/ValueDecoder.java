package io.spanflight.internal.jfr.chunk;

import io.spanflight.internal.jfr.chunk.ChunkMetadata.Field;
import io.spanflight.internal.jfr.chunk.ChunkMetadata.Type;
import io.spanflight.internal.tables.LongIntMap;
import java.util.List;

/**
 * Reads or passes over one value of a chunk by its type in the chunk's metadata: the one place
 * that knows how each kind of value is written. A value read is given as {@link ChunkReader}'s
 * class doc says (a number as itself, a string as its {@link ConstantStore} index, a constant
 * reference as its key, an array or a nested value as -1); a value of several fields has them
 * read into a table of field values, by field index, for {@link #field}.
 *
 * <p>Also holds the chunk's string pool (string constant key to store index), since a string
 * value may name one of its constants, and the budget of values visited: a value of a type
 * without fields takes no bytes, so metadata nesting such types could otherwise make a few bytes
 * cost years. Nesting deeper than {@value #MAX_NESTING}, or a budget spent, is a {@link
 * ChunkFormatException}.
 *
 * <p>Not API: internal to Spanflight.
 */
final class ValueDecoder {
  /** Values visited per byte of a chunk, at most (see the class doc). */
  static final int MAX_STEPS_PER_BYTE = 16;
  private static final int MAX_NESTING = 16;

  private final ConstantStore store;
  private final LongIntMap strings = new LongIntMap();
  private final long[] fieldValues = new long[64];
  private ChunkMetadata metadata;
  private long stepsLeft;

  ValueDecoder(ConstantStore store) {
    this.store = store;
  }

  /** From now on, values are of the types {@code metadata} declares. */
  void use(ChunkMetadata metadata) {
    this.metadata = metadata;
  }

  /** The types of the chunk being read. */
  ChunkMetadata metadata() {
    return metadata;
  }

  /** Values that may still be visited, before the reading is refused. */
  long stepsLeft() {
    return stepsLeft;
  }

  void stepsLeft(long steps) {
    stepsLeft = steps;
  }

  /** Forgets the string constants of the chunk read so far. */
  void startChunk() {
    strings.clear();
  }

  /** Reads a string constant of key {@code key} into the chunk's string pool. */
  void readStringConstant(ChunkInput input, long key) throws ChunkFormatException {
    strings.put(key, stringOf(input, input.readString()));
  }

  /** Reads a value of {@code type} and gives its field {@code field} (-1 when the type lacks it). */
  long readValue(ChunkInput input, Type type, int field) throws ChunkFormatException {
    readFields(input, type, 0);
    return field(field);
  }

  /** Field {@code field} of the value just read, or -1 for a field the type lacks. */
  long field(int field) {
    return field < 0 ? -1 : fieldValues[field];
  }

  /** Reads each field of a value into the table of field values (by field index). */
  void readFields(ChunkInput input, Type type, int depth) throws ChunkFormatException {
    List<Field> fields = type.fields();
    if (fields.size() > fieldValues.length) {
      throw new ChunkFormatException("type " + type.name() + " has " + fields.size() + " fields, more than "
          + fieldValues.length + " read");
    }
    for (int i = 0; i < fields.size(); i++) {
      fieldValues[i] = readField(input, fields.get(i), depth);
    }
  }

  /** The value of {@code field}, as the class doc says. */
  long readField(ChunkInput input, Field field, int depth) throws ChunkFormatException {
    if (field.array()) {
      skipField(input, field, depth);
      return -1;
    }
    if (field.constantPool()) {
      return input.readVarLong();
    }
    Type type = metadata.type(field.typeId());
    return switch (type.kind()) {
      case RAW_BYTE -> input.readByte();
      case VARINT -> input.readVarLong();
      case FLOAT -> input.readRawInt();
      case DOUBLE -> input.readRawLong();
      case STRING -> stringOf(input, input.readString());
      case FIELDS -> {
        skipValue(input, type, depth + 1);
        yield -1;
      }
    };
  }

  private int stringOf(ChunkInput input, String text) {
    if (text != null) {
      return store.string(text);
    }
    long reference = input.lastStringReference();
    return reference < 0 ? -1 : strings.get(reference);
  }

  /** Passes over the value, or every element of the array, of {@code field}. */
  void skipField(ChunkInput input, Field field, int depth) throws ChunkFormatException {
    if (field.array()) {
      int count = input.readCount("array length", (int) Math.min(input.remaining(), Integer.MAX_VALUE));
      for (int i = 0; i < count; i++) {
        skipElement(input, field, depth);
      }
    } else {
      skipElement(input, field, depth);
    }
  }

  private void skipElement(ChunkInput input, Field field, int depth) throws ChunkFormatException {
    if (field.constantPool()) {
      input.readVarLong();
    } else {
      skipValue(input, metadata.type(field.typeId()), depth + 1);
    }
  }

  /** Passes over a value of {@code type}. */
  void skipValue(ChunkInput input, Type type, int depth) throws ChunkFormatException {
    if (depth > MAX_NESTING || --stepsLeft < 0) {
      throw new ChunkFormatException("values nested deeper than " + MAX_NESTING + ", or more of them than "
          + MAX_STEPS_PER_BYTE + " per byte, at " + input.position());
    }
    switch (type.kind()) {
      case RAW_BYTE -> input.skip(1);
      case VARINT -> input.readVarLong();
      case FLOAT -> input.skip(4);
      case DOUBLE -> input.skip(8);
      case STRING -> input.skipString();
      case FIELDS -> {
        for (Field field : type.fields()) {
          skipField(input, field, depth);
        }
      }
    }
  }
}
