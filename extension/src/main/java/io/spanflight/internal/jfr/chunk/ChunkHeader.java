package io.spanflight.internal.jfr.chunk;

/**
 * The 68-byte header that opens every JFR chunk (format 2.x, written by JDK 14 and later): the
 * chunk's size, where its newest constant pools and its metadata are, its start as wall-clock
 * nanoseconds and as ticks, the tick rate, and whether JFR has finished writing it.
 *
 * <p>JFR rewrites the size, positions and state while the chunk is written, marking the state
 * byte while it does; {@link #read} returns null for a header caught in that state, and the
 * caller reads it again.
 *
 * <p>Not API: internal to Spanflight.
 */
record ChunkHeader(long size, long constantPoolOffset, long metadataOffset, long startNanos,
    long startTicks, long ticksPerSecond, boolean finished) {

  static final int SIZE = 68;
  private static final int MAGIC = 'F' << 24 | 'L' << 16 | 'R' << 8;
  private static final int STATE_OFFSET = 64;
  /** The state byte while JFR rewrites the header. */
  private static final byte UPDATING = (byte) 255;

  /**
   * The header in {@code input}'s next {@value #SIZE} bytes, or null when JFR was rewriting it.
   * {@code available} is how many bytes of the chunk exist (the file's length from the chunk on).
   */
  static ChunkHeader read(ChunkInput input, long available) throws ChunkFormatException {
    long at = input.position();
    if (input.readRawInt() != MAGIC) {
      throw new ChunkFormatException("no JFR chunk at " + at + " (magic is not FLR)");
    }
    short major = input.readRawShort();
    short minor = input.readRawShort();
    if (major != 2) {
      throw new ChunkFormatException("JFR chunk format " + major + "." + minor + " at " + at
          + " is not 2.x (JDK 14 and later)");
    }
    long size = input.readRawLong();
    long constantPoolOffset = input.readRawLong();
    long metadataOffset = input.readRawLong();
    long startNanos = input.readRawLong();
    input.readRawLong(); // duration: not needed
    long startTicks = input.readRawLong();
    long ticksPerSecond = input.readRawLong();
    input.position(at + STATE_OFFSET);
    byte state = input.readByte();
    input.skip(3); // flags
    if (state == UPDATING) {
      return null;
    }
    if (size < SIZE || size > available) {
      throw new ChunkFormatException("chunk size " + size + " at " + at + " is outside [" + SIZE + ", "
          + available + "]");
    }
    if (ticksPerSecond <= 0) {
      throw new ChunkFormatException("ticks per second " + ticksPerSecond + " at " + at + " is not positive");
    }
    requireInside("constant pool offset", constantPoolOffset, size, at);
    requireInside("metadata offset", metadataOffset, size, at);
    return new ChunkHeader(size, constantPoolOffset, metadataOffset, startNanos, startTicks,
        ticksPerSecond, state == 0);
  }

  /**
   * Wall-clock nanoseconds since the epoch for a tick count, anchored at this chunk's start and
   * computed as the JDK's own parser does (whole ticks per nanosecond, as a double), so that times
   * match what {@code RecordedEvent} gives for the same event.
   */
  long nanos(long ticks) {
    return startNanos + span(ticks - startTicks);
  }

  /** Nanoseconds for a number of ticks (a duration), as the JDK's parser computes them. */
  long span(long ticks) {
    long ticksPerNanosecond = ticksPerSecond / 1_000_000_000L;
    if (ticksPerNanosecond == 0) { // a clock slower than 1 GHz, which the JDK does not expect
      return (long) (ticks * (1e9 / ticksPerSecond));
    }
    return (long) (ticks / (double) ticksPerNanosecond);
  }

  private static void requireInside(String what, long offset, long size, long at) throws ChunkFormatException {
    // 0 while JFR has not yet written any (an empty chunk just begun)
    if (offset != 0 && (offset < SIZE || offset >= size)) {
      throw new ChunkFormatException(what + " " + offset + " of the chunk at " + at + " is outside ["
          + SIZE + ", " + size + ")");
    }
  }
}
