package io.spanflight.internal.jfr.chunk;

import io.spanflight.internal.jfr.chunk.ChunkMetadata.Type;
import io.spanflight.internal.tables.LongIntMap;

/**
 * The constants of the chunk being read, from its checkpoints: classes, methods, symbols and
 * threads as per-chunk tables of raw references (a method is the keys of its class and its name
 * and descriptor symbols), resolved into the {@link ConstantStore} only when an event asks. String
 * constants go to the {@link ValueDecoder}'s pool, stack traces to {@link ChunkStacks}; every
 * other pool is passed over.
 *
 * <p>Checkpoints are chained backwards from the newest (each holds the offset to the one before
 * it); each read reads those newer than the newest read before. Counts and offsets are bounded: a
 * chain that does not point back, or a checkpoint that holds other than the bytes it says, is a
 * {@link ChunkFormatException}.
 *
 * <p>Not API: internal to Spanflight.
 */
final class ChunkConstants {
  private static final int MAX_POOLS = 1 << 12;
  private static final int MAX_CHECKPOINTS = 1 << 16;

  private final ConstantStore store;
  private final ValueDecoder values;
  private final LongIntMap symbols = new LongIntMap();
  private final LongIntMap classes = new LongIntMap();
  private final LongIntMap methods = new LongIntMap();
  private final LongIntMap threads = new LongIntMap();
  private final LongRows classRows = new LongRows(1);
  /** Per method: its class, name and descriptor keys, and its store index + 1 once resolved (else 0). */
  private final LongRows methodRows = new LongRows(4);
  /** Per thread: its Java id, whether it is virtual (1) or not (0, or -1 before JDK 21). */
  private final LongRows threadRows = new LongRows(2);
  /** Where the fields the kept pools are read for sit, found once per metadata. */
  private PoolFields poolFields;
  /** The newest checkpoint of the chunk read so far. */
  private long checkpointOffset;

  ChunkConstants(ConstantStore store, ValueDecoder values) {
    this.store = store;
    this.values = values;
  }

  /** From now on, the kept pools' fields are where {@code fields} says. */
  void use(PoolFields fields) {
    poolFields = fields;
  }

  /** Forgets the chunk read so far. */
  void startChunk() {
    checkpointOffset = 0;
    symbols.clear();
    classes.clear();
    methods.clear();
    threads.clear();
    classRows.clear();
    methodRows.clear();
    threadRows.clear();
  }

  /** Reads the checkpoints newer than the last read, from the newest back; stack traces into {@code stacks}. */
  void readCheckpoints(ChunkInput input, long start, long newest, ChunkStacks stacks) throws ChunkFormatException {
    long offset = newest;
    long previous = checkpointOffset;
    checkpointOffset = offset;
    for (int read = 0; offset != 0 && offset != previous; read++) {
      if (read == MAX_CHECKPOINTS) {
        throw new ChunkFormatException("more than " + MAX_CHECKPOINTS + " checkpoints in the chunk at " + start);
      }
      long at = start + offset;
      input.position(at);
      long size = input.readVarLong();
      if (size <= 0 || size > input.end() - at || input.readVarLong() != 1) {
        throw new ChunkFormatException("no checkpoint event at " + at);
      }
      input.readVarLong(); // start time
      input.readVarLong(); // duration
      long delta = input.readVarLong();
      if (delta > 0 || (delta < 0 && offset + delta < ChunkHeader.SIZE)) {
        throw new ChunkFormatException("checkpoint at " + at + " points to " + (offset + delta)
            + ", not to an earlier one");
      }
      input.readByte(); // what kind of checkpoint: not needed
      int pools = input.readCount("constant pool count", MAX_POOLS);
      for (int i = 0; i < pools; i++) {
        readPool(input, stacks);
      }
      if (input.position() != at + size) {
        throw new ChunkFormatException("checkpoint at " + at + " holds " + (input.position() - at)
            + " bytes, not the " + size + " it says");
      }
      offset = delta == 0 ? 0 : offset + delta;
    }
  }

  private void readPool(ChunkInput input, ChunkStacks stacks) throws ChunkFormatException {
    Type type = values.metadata().type(input.readVarLong());
    int count = input.readCount("constant count", (int) Math.min(input.remaining(), Integer.MAX_VALUE));
    PoolFields at = poolFields;
    for (int i = 0; i < count; i++) {
      long key = input.readVarLong();
      switch (type.name()) {
        case "jdk.types.Symbol" -> symbols.put(key, (int) values.readValue(input, type, at.symbolString()));
        case "java.lang.String" -> values.readStringConstant(input, key);
        case "java.lang.Class" -> classes.put(key, classRows.add(values.readValue(input, type, at.className())));
        case "jdk.types.Method" -> {
          values.readFields(input, type, 0);
          int row = methodRows.add(values.field(at.methodType()));
          methodRows.set(row, 1, values.field(at.methodName()));
          methodRows.set(row, 2, values.field(at.methodDescriptor()));
          methods.put(key, row);
        }
        case "java.lang.Thread" -> {
          int row = threadRows.add(values.readValue(input, type, at.threadJavaId()));
          threadRows.set(row, 1, values.field(at.threadVirtual()));
          threads.put(key, row);
        }
        case ChunkStacks.STACK_TRACE_TYPE -> stacks.readConstant(input, type, key);
        default -> values.skipValue(input, type, 0);
      }
    }
  }

  /** Whether {@code threadKey} is a thread reference of this chunk. */
  boolean knowsThread(long threadKey) {
    return threads.get(threadKey) >= 0;
  }

  /** The thread's Java id for a thread reference of this chunk, or -1 (unknown, or not Java). */
  long javaThreadId(long threadKey) {
    int row = threads.get(threadKey);
    long id = row < 0 ? -1 : threadRows.get(row, 0);
    return id > 0 ? id : -1; // JFR writes 0 for a thread without a Java id
  }

  /** Whether the thread of this reference is a virtual thread (JFR says so from JDK 21 on). */
  boolean virtual(long threadKey) {
    int row = threads.get(threadKey);
    return row >= 0 && threadRows.get(row, 1) == 1;
  }

  /** The class name (as a store string index) for a class reference of this chunk, or -1. */
  int className(long classKey) {
    int row = classes.get(classKey);
    return row < 0 ? -1 : symbols.get(classRows.get(row, 0));
  }

  /**
   * The method (a {@link ConstantStore} index) for a method reference of this chunk, or -1 when the
   * chunk has no such method or its class or names did not resolve.
   */
  int method(long methodKey) {
    int row = methods.get(methodKey);
    if (row < 0) {
      return -1;
    }
    if (methodRows.get(row, 3) > 0) {
      return (int) methodRows.get(row, 3) - 1;
    }
    int type = className(methodRows.get(row, 0));
    int name = symbols.get(methodRows.get(row, 1));
    int descriptor = symbols.get(methodRows.get(row, 2));
    if (type < 0 || name < 0 || descriptor < 0) {
      return -1;
    }
    int method = store.method(type, name, descriptor);
    methodRows.set(row, 3, method + 1L);
    return method;
  }
}
