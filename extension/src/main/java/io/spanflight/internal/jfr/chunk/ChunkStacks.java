package io.spanflight.internal.jfr.chunk;

import io.spanflight.internal.jfr.chunk.ChunkMetadata.Field;
import io.spanflight.internal.jfr.chunk.ChunkMetadata.Type;
import io.spanflight.internal.tables.LongIntMap;
import java.io.IOException;

/**
 * The stack traces of the chunk being read, put into the {@link ConstantStore} as their
 * checkpoints are read, each one's place in the chunk kept. Past the reader's bound on stack
 * entries the store lets go of its stacks (a new {@linkplain ConstantStore#generation
 * generation}), and a stack an event names after that is read again from its place in the chunk,
 * through {@link ChunkBytes}. A stack one of whose frames names no method that
 * resolves, or that cannot be read again, is no stack (-1), never another one.
 *
 * <p>Not API: internal to Spanflight.
 */
final class ChunkStacks {
  static final String STACK_TRACE_TYPE = "jdk.types.StackTrace";
  private static final int MAX_FRAMES = 8192;

  private final ConstantStore store;
  private final ValueDecoder values;
  private final ChunkConstants constants;
  private final long maxStackEntries;
  /** Stack traces read and not yet resolved: first frame row, frame count, row in {@link #stackTraces}. */
  private final LongRows stackRows = new LongRows(3);
  private final LongRows frameRows = new LongRows(2);
  /** Stack trace key of this chunk to its row in {@link #stackTraces}. */
  private final LongIntMap stackTraceRows = new LongIntMap();
  /**
   * Per stack trace of this chunk: where its value starts in the chunk (-1 once it failed to
   * resolve), its length in bytes, and its store index + 1 while the store holds it (else 0).
   */
  private final LongRows stackTraces = new LongRows(3);
  private int[] frameScratch = new int[64];
  /** Where the frames' method and line sit, found once per metadata. */
  private PoolFields poolFields;
  /** The chunk being read, or null between reads. */
  private ChunkBytes chunkBytes;
  private long stacksReadAgain;

  /** Stacks whose frames resolve through {@code constants}; the store's stacks let go of past {@code maxStackEntries}. */
  ChunkStacks(ConstantStore store, ValueDecoder values, ChunkConstants constants, long maxStackEntries) {
    this.store = store;
    this.values = values;
    this.constants = constants;
    this.maxStackEntries = maxStackEntries;
  }

  /** From now on, frames' fields are where {@code fields} says. */
  void use(PoolFields fields) {
    poolFields = fields;
  }

  /** The chunk being read, where stacks are read again from; null once not held. */
  void readFrom(ChunkBytes bytes) {
    chunkBytes = bytes;
  }

  /** Forgets the chunk read so far. */
  void startChunk() {
    stackTraceRows.clear();
    stackRows.clear();
    frameRows.clear();
    stackTraces.clear();
  }

  /** Stacks read from the chunk a second time (or more) since the store let go of them. */
  long stacksReadAgain() {
    return stacksReadAgain;
  }

  /** Reads the stack trace constant of key {@code key} at {@code input}'s position, keeping its place. */
  void readConstant(ChunkInput input, Type type, long key) throws ChunkFormatException {
    int row = stackTraces.add(input.position());
    readStackTrace(input, type, row);
    stackTraces.set(row, 1, input.position() - stackTraces.get(row, 0));
    stackTraceRows.put(key, row);
  }

  /**
   * The stack (a {@link ConstantStore} index) for a stack trace reference of this chunk, or -1
   * when the chunk has no such stack trace or one of its frames did not resolve.
   */
  int stack(long stackKey) {
    int row = stackTraceRows.get(stackKey);
    if (row < 0) {
      return -1;
    }
    long stack = stackTraces.get(row, 2);
    if (stack > 0) {
      return (int) stack - 1;
    }
    return chunkBytes == null ? -1 : readStackAgain(row);
  }

  /** Reads a stack trace's frames into {@link #frameRows}, to resolve as the one of row {@code trace}. */
  private void readStackTrace(ChunkInput input, Type type, int trace) throws ChunkFormatException {
    int first = frameRows.size();
    PoolFields at = poolFields;
    for (Field field : type.fields()) {
      if (field.name().equals("frames") && field.array() && !field.constantPool()) {
        Type frame = values.metadata().type(field.typeId());
        int count = input.readCount("frame count", MAX_FRAMES);
        for (int i = 0; i < count; i++) {
          long position = input.position();
          values.readFields(input, frame, 1);
          if (input.position() == position) {
            throw new ChunkFormatException("stack frame of no bytes at " + position);
          }
          int row = frameRows.add(values.field(at.frameMethod()));
          frameRows.set(row, 1, values.field(at.frameLine()));
        }
      } else {
        values.skipField(input, field, 1);
      }
    }
    int row = stackRows.add(first);
    stackRows.set(row, 1, frameRows.size() - first);
    stackRows.set(row, 2, trace);
  }

  /**
   * Reads the stack trace of row {@code row} again, at its place in the chunk, into the store: -1
   * when it cannot be read or resolved (and is not tried again). An event asks while the reader
   * may be in the middle of reading events, whose position this does not touch.
   */
  private int readStackAgain(int row) {
    long offset = stackTraces.get(row, 0);
    long length = stackTraces.get(row, 1);
    if (offset < 0) {
      return -1;
    }
    long steps = values.stepsLeft();
    values.stepsLeft(ValueDecoder.MAX_STEPS_PER_BYTE * length + 1_000);
    try {
      ChunkInput input = chunkBytes.read(offset, (int) length);
      input.position(offset);
      readStackTrace(input, values.metadata().type(STACK_TRACE_TYPE), row);
      if (input.position() != offset + length) {
        throw new ChunkFormatException("stack trace at " + offset + " read as " + (input.position() - offset)
            + " bytes, not the " + length + " read before");
      }
    } catch (IOException e) {
      stackRows.reset();
      frameRows.reset();
      stackTraces.set(row, 0, -1);
      return -1;
    } finally {
      values.stepsLeft(steps);
    }
    stacksReadAgain++;
    resolveNewStacks();
    return (int) stackTraces.get(row, 2) - 1;
  }

  /**
   * Puts the stack traces of the checkpoints just read into the store, then lets go of their raw
   * frames: a chunk can hold hundreds of thousands of frames, and JFR ends a chunk only at 12 MB.
   */
  void resolveNewStacks() {
    for (int row = 0; row < stackRows.size(); row++) {
      int first = (int) stackRows.get(row, 0);
      int count = (int) stackRows.get(row, 1);
      if (frameScratch.length < count) {
        frameScratch = new int[count];
      }
      makeRoomFor(count);
      boolean resolved = true;
      for (int i = 0; i < count && resolved; i++) {
        int method = constants.method(frameRows.get(first + i, 0));
        resolved = method >= 0;
        if (resolved) {
          frameScratch[i] = store.frameOf(method, (int) frameRows.get(first + i, 1));
        }
      }
      int trace = (int) stackRows.get(row, 2);
      if (resolved) {
        stackTraces.set(trace, 2, store.stack(frameScratch, count) + 1L);
      } else {
        stackTraces.set(trace, 0, -1); // not read again
      }
    }
    stackRows.reset(); // kept for the chunk's next checkpoint: cleared at its end
    frameRows.reset();
  }

  /**
   * Lets the store go of its stacks (and frames) before a stack of {@code frames} frames would take
   * it past {@link #maxStackEntries}: a new {@linkplain ConstantStore#generation generation}, so
   * the indexes given before are known to mean nothing. The stacks still named are read again.
   */
  private void makeRoomFor(int frames) {
    if (store.stackEntries() + 2L * frames > maxStackEntries && store.stackEntries() > 0) {
      store.clearStacks();
      for (int row = 0; row < stackTraces.size(); row++) {
        stackTraces.set(row, 2, 0);
      }
    }
  }
}
