package io.spanflight.internal.jfr.chunk;

import io.spanflight.internal.format.LongIntMap;
import io.spanflight.internal.jfr.chunk.ChunkMetadata.Field;
import io.spanflight.internal.jfr.chunk.ChunkMetadata.Type;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads JFR chunks without the JDK's parser: only the events subscribed to, only their fields
 * asked for, and stacks, methods and strings into a {@link ConstantStore} that outlives the chunk.
 *
 * <p>The data flow, per chunk: the {@linkplain ChunkHeader header} says where the newest
 * checkpoint and the metadata are. The {@linkplain ChunkMetadata metadata} gives each type's
 * fields in order. Checkpoints are chained backwards from the newest (each holds the offset to the
 * one before it); their constant pools are read into per-chunk tables of raw references (class,
 * method, thread, symbol), every other pool passed over, and their stack traces put into the
 * store at once, each one's place in the chunk kept: past {@link #MAX_STACK_ENTRIES} the store
 * lets go of its stacks, and a stack an event names after that is read again from its place. Then
 * every event from the header's end to the chunk's size: an event of a
 * subscribed type has the fields asked for copied into one {@code long[]} and handed to {@link
 * Events}; any other event is passed over by its size.
 *
 * <p>How a field's value is given in {@code values}: integers, chars, bytes and booleans (0 or 1)
 * as their value; float and double as their IEEE bits; a string as its {@link ConstantStore}
 * index, or -1 for null; a constant reference as its key in this chunk: pass it to {@link #stack},
 * {@link #javaThreadId}, {@link #virtual}, {@link #method} or {@link #className}; a duration (a
 * field annotated {@code @Timespan}) as nanoseconds; times as ticks: pass them to {@link #nanos}.
 * An array or a nested value asked for is -1.
 *
 * <p>Every byte is treated as hostile: lengths, counts, offsets and nesting are bounded, and a
 * chunk that breaks a bound is a {@link ChunkFormatException}; what was read of it before stays
 * handed out.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class ChunkReader {
  /** Receives the subscribed events; must not throw. */
  public interface Events {
    /** An event of subscription {@code subscription}, its fields in {@code values}. */
    void event(int subscription, long[] values);
  }

  /**
   * What a field asked for must be in each chunk's metadata, checked before any of the chunk's
   * events is read: a JDK that renamed a field, dropped it or changed its type would otherwise have
   * its values read as something else (a thread id as a thread reference, a string as a number),
   * or as -1 for every event, and the samples dropped or misjoined without a word. A field that is
   * not what it must be is a {@link ChunkFormatException}.
   */
  public enum Expected {
    /** Nothing checked beyond one value (not an array, not nested), and the field may be absent. */
    ANY(false, null),
    /** A number written in the event (an integer, char, byte, boolean, float or double), if the type has the field. */
    NUMBER_IF_PRESENT(false, null),
    /** A number written in the event. */
    NUMBER(true, null),
    /** A string written in the event (its value is a {@link ConstantStore} index). */
    STRING(true, null),
    /** A reference to a thread of the chunk's constants: for {@link #javaThreadId} and {@link #virtual}. */
    THREAD(true, "java.lang.Thread"),
    /** A reference to a stack trace of the chunk's constants: for {@link #stack}. */
    STACK_TRACE(true, STACK_TRACE_TYPE),
    /** A reference to a method of the chunk's constants: for {@link #method}. */
    METHOD(true, "jdk.types.Method");

    private final boolean required;
    /** The type a constant reference must name, or null for a value written in the event. */
    private final String reference;

    Expected(boolean required, String reference) {
      this.required = required;
      this.reference = reference;
    }
  }

  /** The chunk being read, again: where a stack the store let go of is read from anew. */
  interface ChunkBytes {
    /** The chunk's bytes from {@code offset} on, at least {@code length} of them. */
    ChunkInput read(long offset, int length) throws IOException;
  }

  /** A file larger than this is not read (JFR's chunks are 12 MB unless configured). */
  static final long MAX_FILE_BYTES = 64L << 20;
  /**
   * Values visited per byte of a chunk, at most: a value of a type without fields takes no bytes,
   * so metadata nesting such types could otherwise make a few bytes cost years.
   */
  private static final int MAX_STEPS_PER_BYTE = 16;
  /**
   * Store entries after which the store starts over, at the next chunk: what it carries from one
   * chunk into the next (about a megabyte of stack ints); within a chunk it grows with the stacks
   * that chunk brings, since it is only cleared between chunks. A service keeps meeting stacks it
   * never met (Spring PetClinic: 10 500 stacks, 612 000 entries, in its first three minutes); the
   * price of starting over is re-interning the stacks still in use, which every chunk's reading
   * does anyway (JFR writes each chunk's constants anew).
   */
  static final long MAX_STORE_ENTRIES = 1 << 18;
  /**
   * Frames and frames of stacks the store holds within a chunk (about a megabyte of ints) before it
   * lets go of its stacks: a chunk lasts until JFR has written 12 MB (minutes: seven on Spring
   * PetClinic under load, when the store held 10 000 stacks in 4 MB after three), and each of its
   * stacks must stay usable to the chunk's later events. A stack let go of is read again from the
   * chunk, at the place kept for it, when an event next names it.
   */
  static final long MAX_STACK_ENTRIES = 1 << 18;
  private static final int MAX_NESTING = 16;
  /** A plan's slots before its per-field ones. */
  private static final int PLAN_SLOTS = 3;
  private static final int MAX_FRAMES = 8192;
  private static final int MAX_POOLS = 1 << 12;
  private static final int MAX_CHECKPOINTS = 1 << 16;
  private static final String STACK_TRACE_TYPE = "jdk.types.StackTrace";

  private final String[] eventNames;
  private final String[][] eventFields;
  private final Expected[][] expected;
  private final ConstantStore store;
  private final long maxStoreEntries;
  private final long maxStackEntries;
  private final Events events;
  private final long[] values;

  /** The first chunk's header, which converts every chunk's ticks (see {@link #nanos}). */
  private ChunkHeader clock;
  private ChunkMetadata metadata;
  /** Where the fields the kept pools are read for sit, found once per metadata. */
  private PoolFields poolFields;
  /** Of the chunk being read: the newest checkpoint and metadata read, and how far events were. */
  private long checkpointOffset;
  private long metadataOffset;
  private long eventPosition = ChunkHeader.SIZE;
  /**
   * Event type id of this chunk to its plan: {subscription, index of the start time field, of the
   * duration field, then per field its slot in values or -1}.
   */
  private final LongIntMap planOfType = new LongIntMap();
  private final List<int[]> plans = new ArrayList<>();
  private final long[] fieldValues = new long[64];

  private final LongIntMap symbols = new LongIntMap();
  private final LongIntMap strings = new LongIntMap();
  private final LongIntMap classes = new LongIntMap();
  private final LongIntMap methods = new LongIntMap();
  private final LongIntMap threads = new LongIntMap();
  private final LongRows classRows = new LongRows(1);
  /** Per method: its class, name and descriptor keys, and its store index + 1 once resolved (else 0). */
  private final LongRows methodRows = new LongRows(4);
  /** Stack traces read and not yet resolved: first frame row, frame count, row in {@link #stackTraces}. */
  private final LongRows stackRows = new LongRows(3);
  private final LongRows frameRows = new LongRows(2);
  /** Per thread: its Java id, whether it is virtual (1) or not (0, or -1 before JDK 21). */
  private final LongRows threadRows = new LongRows(2);
  /** Stack trace key of this chunk to its row in {@link #stackTraces}. */
  private final LongIntMap stackTraceRows = new LongIntMap();
  /**
   * Per stack trace of this chunk: where its value starts in the chunk (-1 once it failed to
   * resolve), its length in bytes, and its store index + 1 while the store holds it (else 0).
   */
  private final LongRows stackTraces = new LongRows(3);
  /** The chunk being read, or null between reads. */
  private ChunkBytes chunkBytes;
  private long stacksReadAgain;
  private int[] frameScratch = new int[64];
  private long stepsLeft;
  /** Null: events are handed out in the order read. */
  private EventOrder order;
  /** The latest end (start plus duration, in ticks) of a subscribed event read so far. */
  private long newestEndTicks = Long.MIN_VALUE;

  /**
   * A reader handing {@code events} the events named in {@code eventNames}; subscription i asks
   * for the fields {@code eventFields[i]}, in that order, each at most once (an empty name asks
   * for nothing: its value is -1).
   */
  public ChunkReader(ConstantStore store, String[] eventNames, String[][] eventFields, Events events) {
    this(store, eventNames, eventFields, anything(eventFields), events, MAX_STORE_ENTRIES, MAX_STACK_ENTRIES);
  }

  /**
   * As {@link #ChunkReader(ConstantStore, String[], String[][], Events)}, each field {@code
   * eventFields[i][j]} checked in every chunk's metadata to be what {@code expected[i][j]} says.
   */
  public ChunkReader(ConstantStore store, String[] eventNames, String[][] eventFields, Expected[][] expected,
      Events events) {
    this(store, eventNames, eventFields, expected, events, MAX_STORE_ENTRIES, MAX_STACK_ENTRIES);
  }

  /**
   * For tests: a reader that clears the store between chunks past {@code maxStoreEntries}, and lets
   * go of its stacks within a chunk past {@code maxStackEntries}.
   */
  ChunkReader(ConstantStore store, String[] eventNames, String[][] eventFields, Events events, long maxStoreEntries,
      long maxStackEntries) {
    this(store, eventNames, eventFields, anything(eventFields), events, maxStoreEntries, maxStackEntries);
  }

  private ChunkReader(ConstantStore store, String[] eventNames, String[][] eventFields, Expected[][] expected,
      Events events, long maxStoreEntries, long maxStackEntries) {
    this.maxStoreEntries = maxStoreEntries;
    this.maxStackEntries = maxStackEntries;
    this.store = store;
    this.eventNames = eventNames.clone();
    this.eventFields = eventFields.clone();
    this.expected = expected.clone();
    this.events = events;
    int widest = 0;
    for (int i = 0; i < eventFields.length; i++) {
      widest = Math.max(widest, eventFields[i].length);
      requireDistinct(eventFields[i]);
      if (expected[i].length != eventFields[i].length) {
        throw new IllegalArgumentException("expected " + Arrays.toString(expected[i]) + " for the fields "
            + Arrays.toString(eventFields[i]));
      }
    }
    this.values = new long[widest];
  }

  private static Expected[][] anything(String[][] eventFields) {
    Expected[][] expected = new Expected[eventFields.length][];
    for (int i = 0; i < eventFields.length; i++) {
      expected[i] = new Expected[eventFields[i].length];
      Arrays.fill(expected[i], Expected.ANY);
    }
    return expected;
  }

  /** A field asked for twice would fill only one of its slots: refused. */
  private static void requireDistinct(String[] fields) {
    for (int i = 0; i < fields.length; i++) {
      for (int j = i + 1; j < fields.length; j++) {
        if (!fields[i].isEmpty() && fields[i].equals(fields[j])) {
          throw new IllegalArgumentException("field " + fields[i] + " asked for twice in " + Arrays.toString(fields));
        }
      }
    }
  }

  /**
   * From now on, hands out the events of each read (a whole chunk, or what one {@link
   * RepositoryFollower#poll} found) by end time, as the JDK's ordered stream hands out each flush's;
   * by default they come in the order JFR wrote them.
   */
  public ChunkReader inTimeOrder() {
    order = new EventOrder(values.length);
    return this;
  }

  /** Reads every chunk of a recording file (not following a symbolic link). */
  public void read(Path file) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
      long size = channel.size();
      if (size > MAX_FILE_BYTES) {
        throw new ChunkFormatException(file + " has " + size + " bytes, more than the " + MAX_FILE_BYTES + " read");
      }
      ByteBuffer buffer = ByteBuffer.allocate((int) size);
      while (buffer.hasRemaining() && channel.read(buffer) >= 0) {
        // until the whole file is in
      }
      read(buffer.array(), buffer.position());
    }
  }

  /** Reads every chunk in {@code bytes[0..length)}, one after the other. */
  public void read(byte[] bytes, int length) throws ChunkFormatException {
    int start = 0;
    while (start < length) {
      ChunkInput input = new ChunkInput(bytes, 0, length);
      input.position(start);
      ChunkHeader chunk = ChunkHeader.read(input, length - start);
      if (chunk == null) {
        return; // being rewritten: nothing more to read now
      }
      int end = (int) (start + chunk.size());
      startChunk();
      try {
        // positions in this input are the file's, as in the chunk's own input
        update(new ChunkInput(bytes, 0, end), start, chunk, (offset, atLeast) -> new ChunkInput(bytes, 0, end));
      } finally {
        chunkBytes = null; // not holding the file's bytes once read
      }
      start = end;
    }
  }

  /**
   * Wall-clock nanoseconds since the epoch for a time in ticks, converted as the JDK's parser
   * converts them: with the header of the first chunk this reader read, for every chunk after it.
   * (Each chunk's header pairs a wall-clock time with a tick count read just after it; anchored
   * anew at every chunk, times would step by that pairing's error, microseconds, at chunk
   * boundaries, and differ from the JDK's for the same event.)
   */
  public long nanos(long ticks) {
    return clock.nanos(ticks);
  }

  /** Nanoseconds for a duration in ticks, converted as the JDK's parser converts them. */
  public long spanNanos(long ticks) {
    return clock.span(ticks);
  }

  /** Whether {@code threadKey} is a thread reference of this chunk. */
  public boolean knowsThread(long threadKey) {
    return threads.get(threadKey) >= 0;
  }

  /** The thread's Java id for a thread reference of this chunk, or -1 (unknown, or not Java). */
  public long javaThreadId(long threadKey) {
    int row = threads.get(threadKey);
    long id = row < 0 ? -1 : threadRows.get(row, 0);
    return id > 0 ? id : -1; // JFR writes 0 for a thread without a Java id
  }

  /** Whether the thread of this reference is a virtual thread (JFR says so from JDK 21 on). */
  public boolean virtual(long threadKey) {
    int row = threads.get(threadKey);
    return row >= 0 && threadRows.get(row, 1) == 1;
  }

  /** The class name (as a store string index) for a class reference of this chunk, or -1. */
  public int className(long classKey) {
    int row = classes.get(classKey);
    return row < 0 ? -1 : symbols.get(classRows.get(row, 0));
  }

  /**
   * The stack (a {@link ConstantStore} index) for a stack trace reference of this chunk, or -1
   * when the chunk has no such stack trace or one of its frames did not resolve.
   */
  public int stack(long stackKey) {
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

  /**
   * The latest end time, in ticks, of the subscribed events read so far (each handed out, even
   * from a flush that failed after it), or Long.MIN_VALUE: where a reader taking over from this one
   * starts (events ending later), so that none is handed out twice.
   */
  public long newestEndTicks() {
    return newestEndTicks;
  }

  /** Whether a chunk header has been read, so that {@link #nanos} converts ticks. */
  public boolean hasClock() {
    return clock != null;
  }

  /** Stacks read from the chunk a second time (or more) since the store let go of them. */
  public long stacksReadAgain() {
    return stacksReadAgain;
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
    long steps = stepsLeft;
    stepsLeft = MAX_STEPS_PER_BYTE * length + 1_000;
    try {
      ChunkInput input = chunkBytes.read(offset, (int) length);
      input.position(offset);
      readStackTrace(input, metadata.type(STACK_TRACE_TYPE), row);
      if (input.position() != offset + length) {
        throw new ChunkFormatException("stack trace at " + offset + " read as " + (input.position() - offset)
            + " bytes, not the " + length + " read before");
      }
    } catch (IOException e) {
      stackRows.clear();
      frameRows.clear();
      stackTraces.set(row, 0, -1);
      return -1;
    } finally {
      stepsLeft = steps;
    }
    stacksReadAgain++;
    resolveNewStacks();
    return (int) stackTraces.get(row, 2) - 1;
  }

  /**
   * Puts the stack traces of the checkpoints just read into the store, then lets go of their raw
   * frames: a chunk can hold hundreds of thousands of frames, and JFR ends a chunk only at 12 MB.
   */
  private void resolveNewStacks() {
    for (int row = 0; row < stackRows.size(); row++) {
      int first = (int) stackRows.get(row, 0);
      int count = (int) stackRows.get(row, 1);
      if (frameScratch.length < count) {
        frameScratch = new int[count];
      }
      makeRoomFor(count);
      boolean resolved = true;
      for (int i = 0; i < count && resolved; i++) {
        int method = method(frameRows.get(first + i, 0));
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
    stackRows.clear();
    frameRows.clear();
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

  /**
   * The method (a {@link ConstantStore} index) for a method reference of this chunk, or -1 when the
   * chunk has no such method or its class or names did not resolve.
   */
  public int method(long methodKey) {
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

  /**
   * Reads what a chunk being written gained since the last call: {@code window} holds the chunk's
   * bytes from where the last call stopped ({@link #readUpTo()}, or {@link ChunkHeader#SIZE} for a
   * new chunk: call {@link #startChunk()} first) to {@code chunk.size()}, as JFR's header says at
   * its last flush. Everything before that size is final; constants come after the events that
   * use them but before the size, so each flush is read whole. {@code bytes} reads any of the
   * chunk's bytes before that size again, for a stack the store let go of.
   */
  void update(ChunkInput window, ChunkHeader chunk, ChunkBytes bytes) throws ChunkFormatException {
    update(window, 0, chunk, bytes);
  }

  /** The chunk offset up to which events have been read. */
  long readUpTo() {
    return eventPosition;
  }

  private void update(ChunkInput input, long start, ChunkHeader chunk, ChunkBytes bytes) throws ChunkFormatException {
    chunkBytes = bytes;
    if (clock == null) {
      clock = chunk;
    }
    stepsLeft = MAX_STEPS_PER_BYTE * (chunk.size() - eventPosition) + 1_000_000;
    if (chunk.metadataOffset() == 0) {
      return; // nothing flushed yet
    }
    if (chunk.metadataOffset() != metadataOffset) {
      input.position(start + chunk.metadataOffset());
      metadata = ChunkMetadata.read(input);
      metadataOffset = chunk.metadataOffset();
      poolFields = PoolFields.of(metadata);
      plan();
    }
    readCheckpoints(input, start, chunk.constantPoolOffset());
    resolveNewStacks();
    long end = start + chunk.size();
    input.position(start + eventPosition);
    try {
      while (input.position() < end) {
        readEvent(input, end);
      }
    } finally {
      if (order != null) {
        order.handOut(events); // what was read before a bad byte stays handed out
      }
    }
    eventPosition = chunk.size();
  }

  /** Forgets the chunk read so far: the next {@link #update} reads a new one. */
  void startChunk() {
    if (store.entries() > maxStoreEntries) {
      store.clear(); // between chunks, where no index of the store is held
    }
    checkpointOffset = 0;
    metadataOffset = 0;
    eventPosition = ChunkHeader.SIZE;
    for (LongIntMap map : List.of(symbols, strings, classes, methods, threads,
        stackTraceRows)) {
      map.clear();
    }
    for (LongRows rows : List.of(classRows, methodRows, stackRows, frameRows, threadRows, stackTraces)) {
      rows.clear();
    }
  }

  /** Works out, for each subscribed event type the chunk declares, where the wanted fields are. */
  private void plan() throws ChunkFormatException {
    planOfType.clear();
    plans.clear();
    for (int subscription = 0; subscription < eventNames.length; subscription++) {
      Type type = metadata.type(eventNames[subscription]);
      if (type == null) {
        continue; // not in this chunk (an event class not yet loaded, or another JDK)
      }
      int[] plan = new int[PLAN_SLOTS + type.fields().size()];
      Arrays.fill(plan, -1);
      plan[0] = subscription;
      plan[1] = type.fieldIndex("startTime");
      plan[2] = type.fieldIndex("duration");
      String[] wanted = eventFields[subscription];
      for (int slot = 0; slot < wanted.length; slot++) {
        if (wanted[slot].isEmpty()) {
          continue;
        }
        int field = type.fieldIndex(wanted[slot]);
        Expected expect = expected[subscription][slot];
        if (field >= 0) {
          requireReadable(type, type.fields().get(field));
          requireExpected(type, type.fields().get(field), expect);
          plan[PLAN_SLOTS + field] = slot;
        } else if (expect.required) {
          throw new ChunkFormatException("event " + type.name() + " has no field " + wanted[slot]
              + ", which the reader's plan reads");
        }
      }
      planOfType.put(type.id(), plans.size());
      plans.add(plan);
    }
  }

  /**
   * A field asked for must hold one value: a number, a string or a constant reference. An array or
   * a nested value would be read as -1 (no value) for every event, and every sample dropped without
   * a word: the event's layout is not the one this reader's plan reads.
   */
  private void requireReadable(Type type, Field field) throws ChunkFormatException {
    if (field.array() || (!field.constantPool() && metadata.type(field.typeId()).kind() == ChunkMetadata.Kind.FIELDS)) {
      throw new ChunkFormatException("event " + type.name() + " has field " + field.name() + " as "
          + (field.array() ? "an array" : "a nested value") + ", not the single value the reader's plan reads");
    }
  }

  /**
   * A field asked for must be what the plan reads it as (see {@link Expected}): a JDK that changed
   * its type would have its values read as something else.
   */
  private void requireExpected(Type type, Field field, Expected expect) throws ChunkFormatException {
    if (expect == Expected.ANY) {
      return;
    }
    Type of = metadata.type(field.typeId());
    boolean as = expect.reference != null
        ? field.constantPool() && of.name().equals(expect.reference)
        : !field.constantPool() && (expect == Expected.STRING
            ? of.kind() == ChunkMetadata.Kind.STRING
            : of.kind() != ChunkMetadata.Kind.STRING && of.kind() != ChunkMetadata.Kind.FIELDS);
    if (!as) {
      throw new ChunkFormatException("event " + type.name() + " has field " + field.name() + " of type " + of.name()
          + (field.constantPool() ? " (a constant reference)" : "") + ", not the "
          + (expect.reference != null ? "reference to " + expect.reference : expect == Expected.STRING ? "string" : "number")
          + " the reader's plan reads");
    }
  }

  /** Reads the checkpoints newer than the last read, from the newest back. */
  private void readCheckpoints(ChunkInput input, long start, long newest) throws ChunkFormatException {
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
        readPool(input);
      }
      if (input.position() != at + size) {
        throw new ChunkFormatException("checkpoint at " + at + " holds " + (input.position() - at)
            + " bytes, not the " + size + " it says");
      }
      offset = delta == 0 ? 0 : offset + delta;
    }
  }

  private void readPool(ChunkInput input) throws ChunkFormatException {
    Type type = metadata.type(input.readVarLong());
    int count = input.readCount("constant count", (int) Math.min(input.remaining(), Integer.MAX_VALUE));
    PoolFields at = poolFields;
    for (int i = 0; i < count; i++) {
      long key = input.readVarLong();
      switch (type.name()) {
        case "jdk.types.Symbol" -> symbols.put(key, (int) readValue(input, type, at.symbolString));
        case "java.lang.String" -> strings.put(key, stringOf(input, input.readString()));
        case "java.lang.Class" -> classes.put(key, row(classRows, readValue(input, type, at.className)));
        case "jdk.types.Method" -> {
          readFields(input, type, 0);
          int row = row(methodRows, field(at.methodType));
          methodRows.set(row, 1, field(at.methodName));
          methodRows.set(row, 2, field(at.methodDescriptor));
          methods.put(key, row);
        }
        case "java.lang.Thread" -> {
          int row = row(threadRows, readValue(input, type, at.threadJavaId));
          threadRows.set(row, 1, field(at.threadVirtual));
          threads.put(key, row);
        }
        case STACK_TRACE_TYPE -> {
          int row = row(stackTraces, input.position());
          readStackTrace(input, type, row);
          stackTraces.set(row, 1, input.position() - stackTraces.get(row, 0));
          stackTraceRows.put(key, row);
        }
        default -> skipValue(input, type, 0);
      }
    }
  }

  /** Reads a value of {@code type} and gives its field {@code field} (-1 when the type lacks it). */
  private long readValue(ChunkInput input, Type type, int field) throws ChunkFormatException {
    readFields(input, type, 0);
    return field(field);
  }

  /** Appends a row to {@code rows} with {@code first} in its first column; returns the row. */
  private static int row(LongRows rows, long first) {
    int row = rows.add();
    rows.set(row, 0, first);
    return row;
  }

  /** Field {@code field} of the value just read, or -1 for a field the type lacks. */
  private long field(int field) {
    return field < 0 ? -1 : fieldValues[field];
  }

  /** Reads a stack trace's frames into {@link #frameRows}, to resolve as the one of row {@code trace}. */
  private void readStackTrace(ChunkInput input, Type type, int trace) throws ChunkFormatException {
    int first = frameRows.size();
    PoolFields at = poolFields;
    for (Field field : type.fields()) {
      if (field.name().equals("frames") && field.array() && !field.constantPool()) {
        Type frame = metadata.type(field.typeId());
        int count = input.readCount("frame count", MAX_FRAMES);
        for (int i = 0; i < count; i++) {
          long position = input.position();
          readFields(input, frame, 1);
          if (input.position() == position) {
            throw new ChunkFormatException("stack frame of no bytes at " + position);
          }
          int row = row(frameRows, field(at.frameMethod));
          frameRows.set(row, 1, field(at.frameLine));
        }
      } else {
        skipField(input, field, 1);
      }
    }
    int row = row(stackRows, first);
    stackRows.set(row, 1, frameRows.size() - first);
    stackRows.set(row, 2, trace);
  }

  /**
   * Where the fields the kept pools are read for sit in their types (-1 where a type lacks one),
   * looked up once per metadata rather than once per constant.
   */
  private record PoolFields(int symbolString, int className, int methodType, int methodName,
      int methodDescriptor, int threadJavaId, int threadVirtual, int frameMethod, int frameLine) {

    static PoolFields of(ChunkMetadata metadata) throws ChunkFormatException {
      Type frame = frameType(metadata);
      return new PoolFields(index(metadata.type("jdk.types.Symbol"), "string"),
          index(metadata.type("java.lang.Class"), "name"),
          index(metadata.type("jdk.types.Method"), "type"),
          index(metadata.type("jdk.types.Method"), "name"),
          index(metadata.type("jdk.types.Method"), "descriptor"),
          index(metadata.type("java.lang.Thread"), "javaThreadId"),
          index(metadata.type("java.lang.Thread"), "virtual"),
          index(frame, "method"), index(frame, "lineNumber"));
    }

    /** The type of a stack trace's frames, as the metadata declares its {@code frames} field. */
    private static Type frameType(ChunkMetadata metadata) throws ChunkFormatException {
      Type stackTrace = metadata.type(STACK_TRACE_TYPE);
      int frames = index(stackTrace, "frames");
      return frames < 0 ? null : metadata.type(stackTrace.fields().get(frames).typeId());
    }

    private static int index(Type type, String field) {
      return type == null ? -1 : type.fieldIndex(field);
    }
  }

  /** Reads each field of a value into {@link #fieldValues} (by field index); see the class doc. */
  private void readFields(ChunkInput input, Type type, int depth) throws ChunkFormatException {
    List<Field> fields = type.fields();
    if (fields.size() > fieldValues.length) {
      throw new ChunkFormatException("type " + type.name() + " has " + fields.size() + " fields, more than "
          + fieldValues.length + " read");
    }
    for (int i = 0; i < fields.size(); i++) {
      fieldValues[i] = readField(input, fields.get(i), depth);
    }
  }

  private long readField(ChunkInput input, Field field, int depth) throws ChunkFormatException {
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

  private void skipField(ChunkInput input, Field field, int depth) throws ChunkFormatException {
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

  private void skipValue(ChunkInput input, Type type, int depth) throws ChunkFormatException {
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

  /** A duration field's value in nanoseconds (see {@link Field#nanosPerUnit}); any other as it is. */
  private long inNanos(long value, Field field) {
    long unit = field.nanosPerUnit();
    if (unit == 0 || field.array()) {
      return value;
    }
    if (unit == ChunkMetadata.TICKS) {
      return clock.span(value);
    }
    long nanos = value * unit;
    return nanos / unit == value ? nanos : value < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
  }

  private void readEvent(ChunkInput input, long end) throws ChunkFormatException {
    long at = input.position();
    long size = input.readVarLong();
    if (size <= 0 || size > end - at) {
      throw new ChunkFormatException("event size " + size + " at " + at + " passes the chunk's end " + end);
    }
    long typeId = input.readVarLong();
    int planIndex = planOfType.get(typeId);
    if (planIndex >= 0) {
      int[] plan = plans.get(planIndex);
      Arrays.fill(values, -1);
      long start = 0;
      long duration = 0;
      List<Field> fields = metadata.type(typeId).fields();
      for (int i = 0; i < fields.size(); i++) {
        int slot = plan[PLAN_SLOTS + i];
        if (slot >= 0 || i == plan[1] || i == plan[2]) {
          long value = readField(input, fields.get(i), 0);
          start = i == plan[1] ? value : start;
          duration = i == plan[2] ? value : duration;
          if (slot >= 0) {
            values[slot] = inNanos(value, fields.get(i));
          }
        } else {
          skipField(input, fields.get(i), 0);
        }
      }
      if (input.position() > at + size) {
        throw new ChunkFormatException("event at " + at + " holds more than the " + size + " bytes it says");
      }
      newestEndTicks = Math.max(newestEndTicks, start + Math.max(0, duration));
      if (order == null) {
        events.event(plan[0], values);
      } else {
        order.add(start + Math.max(0, duration), plan[0], values, events);
      }
    }
    input.position(at + size);
  }
}
