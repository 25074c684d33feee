package io.spanflight.internal.jfr.chunk;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Reads JFR chunks without the JDK's parser: only the events subscribed to, only their fields
 * asked for, and stacks, methods and strings into a {@link ConstantStore} that outlives the chunk.
 *
 * <p>The data flow, per chunk: the {@linkplain ChunkHeader header} says where the newest
 * checkpoint and the metadata are. The {@linkplain ChunkMetadata metadata} gives each type's
 * fields in order; from it, {@link EventPlans} works out (and checks) which fields of each
 * subscribed event type to read. {@link ChunkConstants} reads the checkpoints, chained backwards
 * from the newest, into per-chunk tables of raw references (class, method, thread, symbol), every
 * other pool passed over; their stack traces go to {@link ChunkStacks}, which puts them into the
 * store at once, each one's place in the chunk kept: past {@link #MAX_STACK_ENTRIES} the store
 * lets go of its stacks, and a stack an event names after that is read again from its place. Then
 * {@link EventDispatch} reads every event from the header's end to the chunk's size: an event of a
 * subscribed type has the fields asked for copied into one {@code long[]} and handed to {@link
 * Events}; any other event is passed over by its size. {@link ValueDecoder} reads and passes over
 * the values for all of them; {@link TickConversion} turns ticks into nanoseconds.
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

  /** A file larger than this is not read (JFR's chunks are 12 MB unless configured). */
  static final long MAX_FILE_BYTES = 64L << 20;
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

  private final ConstantStore store;
  private final long maxStoreEntries;
  private final TickConversion ticks = new TickConversion();
  private final ValueDecoder values;
  private final ChunkConstants constants;
  private final ChunkStacks stacks;
  private final EventPlans plans;
  private final EventDispatch dispatch;

  /** Of the chunk being read: the metadata read, and how far events were. */
  private long metadataOffset;
  private long eventPosition = ChunkHeader.SIZE;

  /**
   * A reader handing {@code events} the events named in {@code eventNames}; subscription i asks
   * for the fields {@code eventFields[i]}, in that order, each at most once (an empty name asks
   * for nothing: its value is -1).
   */
  public ChunkReader(ConstantStore store, String[] eventNames, String[][] eventFields, Events events) {
    this(store, eventNames, eventFields, EventPlans.anything(eventFields), events, MAX_STORE_ENTRIES,
        MAX_STACK_ENTRIES);
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
    this(store, eventNames, eventFields, EventPlans.anything(eventFields), events, maxStoreEntries, maxStackEntries);
  }

  private ChunkReader(ConstantStore store, String[] eventNames, String[][] eventFields, Expected[][] expected,
      Events events, long maxStoreEntries, long maxStackEntries) {
    this.maxStoreEntries = maxStoreEntries;
    this.store = store;
    this.plans = new EventPlans(eventNames, eventFields, expected);
    this.values = new ValueDecoder(store);
    this.constants = new ChunkConstants(store, values);
    this.stacks = new ChunkStacks(store, values, constants, maxStackEntries);
    this.dispatch = new EventDispatch(plans, values, ticks, events);
  }

  /**
   * From now on, hands out the events of each read (a whole chunk, or what one {@link
   * RepositoryFollower#poll} found) by end time, as the JDK's ordered stream hands out each flush's;
   * by default they come in the order JFR wrote them.
   */
  public ChunkReader inTimeOrder() {
    dispatch.inTimeOrder();
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
        stacks.readFrom(null); // not holding the file's bytes once read
      }
      start = end;
    }
  }

  /**
   * Wall-clock nanoseconds since the epoch for a time in ticks, converted as the JDK's parser
   * converts them: with the header of the first chunk this reader read, for every chunk after it
   * (see {@link TickConversion}).
   */
  public long nanos(long ticks) {
    return this.ticks.nanos(ticks);
  }

  /** Nanoseconds for a duration in ticks, converted as the JDK's parser converts them. */
  public long spanNanos(long ticks) {
    return this.ticks.span(ticks);
  }

  /** Whether {@code threadKey} is a thread reference of this chunk. */
  public boolean knowsThread(long threadKey) {
    return constants.knowsThread(threadKey);
  }

  /** The thread's Java id for a thread reference of this chunk, or -1 (unknown, or not Java). */
  public long javaThreadId(long threadKey) {
    return constants.javaThreadId(threadKey);
  }

  /** Whether the thread of this reference is a virtual thread (JFR says so from JDK 21 on). */
  public boolean virtual(long threadKey) {
    return constants.virtual(threadKey);
  }

  /** The class name (as a store string index) for a class reference of this chunk, or -1. */
  public int className(long classKey) {
    return constants.className(classKey);
  }

  /**
   * The method (a {@link ConstantStore} index) for a method reference of this chunk, or -1 when the
   * chunk has no such method or its class or names did not resolve.
   */
  public int method(long methodKey) {
    return constants.method(methodKey);
  }

  /**
   * The stack (a {@link ConstantStore} index) for a stack trace reference of this chunk, or -1
   * when the chunk has no such stack trace or one of its frames did not resolve.
   */
  public int stack(long stackKey) {
    return stacks.stack(stackKey);
  }

  /**
   * The latest end time, in ticks, of the subscribed events read so far (each handed out, even
   * from a flush that failed after it), or Long.MIN_VALUE: where a reader taking over from this one
   * starts (events ending later), so that none is handed out twice.
   */
  public long newestEndTicks() {
    return dispatch.newestEndTicks();
  }

  /** Whether a chunk header has been read, so that {@link #nanos} converts ticks. */
  public boolean hasClock() {
    return ticks.anchored();
  }

  /** Stacks read from the chunk a second time (or more) since the store let go of them. */
  public long stacksReadAgain() {
    return stacks.stacksReadAgain();
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
    stacks.readFrom(bytes);
    ticks.anchor(chunk);
    values.stepsLeft(ValueDecoder.MAX_STEPS_PER_BYTE * (chunk.size() - eventPosition) + 1_000_000);
    if (chunk.metadataOffset() == 0) {
      return; // nothing flushed yet
    }
    if (chunk.metadataOffset() != metadataOffset) {
      input.position(start + chunk.metadataOffset());
      ChunkMetadata metadata = ChunkMetadata.read(input);
      values.use(metadata);
      metadataOffset = chunk.metadataOffset();
      PoolFields poolFields = PoolFields.of(metadata);
      constants.use(poolFields);
      stacks.use(poolFields);
      plans.plan(metadata);
    }
    constants.readCheckpoints(input, start, chunk.constantPoolOffset(), stacks);
    stacks.resolveNewStacks();
    long end = start + chunk.size();
    input.position(start + eventPosition);
    try {
      while (input.position() < end) {
        dispatch.readEvent(input, end);
      }
    } finally {
      dispatch.handOutHeld(); // what was read before a bad byte stays handed out
    }
    eventPosition = chunk.size();
  }

  /** Forgets the chunk read so far: the next {@link #update} reads a new one. */
  void startChunk() {
    if (store.entries() > maxStoreEntries) {
      store.clear(); // between chunks, where no index of the store is held
    }
    metadataOffset = 0;
    eventPosition = ChunkHeader.SIZE;
    values.startChunk();
    constants.startChunk();
    stacks.startChunk();
  }
}
