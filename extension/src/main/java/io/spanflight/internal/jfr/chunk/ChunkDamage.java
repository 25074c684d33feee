package io.spanflight.internal.jfr.chunk;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * A test seam, and only that: damages what {@link RepositoryFollower} hands Spanflight's reader,
 * from some seconds after it was made on, as a JDK that writes what the reader does not know
 * would. Only the follower's copy in memory is damaged; the files stay as JFR wrote them, so the
 * JDK's own stream (the fallback reader) reads them as they are. Set with the system property
 * {@value #PROPERTY} = {@code kind:seconds}:
 *
 * <ul>
 *   <li>{@code version}: every header names chunk format 3.0, a major version the reader does not
 *       know;
 *   <li>{@code truncated}: every header gives the chunk a size a megabyte past the file's end;
 *   <li>{@code metadata}: the first string of a metadata event is in encoding 6, which no JDK
 *       writes (as a JDK that added one would write it): the metadata cannot be parsed;
 *   <li>{@code layout}: a metadata event names the field {@code sampledThread} (the thread of
 *       {@code jdk.ExecutionSample} and {@code jdk.NativeMethodSample}) {@code SampledThread}, as
 *       a JDK that renamed or dropped the field would: the event's layout is not the one the
 *       reader's plan reads.
 * </ul>
 *
 * <p>The last two take effect at the first metadata event read after the seconds: JFR writes one
 * at the start of each chunk and when new event types come. Unset (always, outside Spanflight's
 * tests), it does nothing. A wrong value is ignored.
 *
 * <p>Not API: internal to Spanflight.
 */
final class ChunkDamage {
  /** The system property the tests set: {@code version:5} damages every header read 5 s on. */
  static final String PROPERTY = "spanflight.test.damageChunks";
  private static final int MAJOR_OFFSET = 4;
  private static final int SIZE_OFFSET = 8;
  /** A string encoding no JDK writes (0 to 5 are JFR's). */
  static final byte UNKNOWN_ENCODING = 6;
  static final String RENAMED_FIELD = "sampledThread";
  private static final byte[] RENAMED = RENAMED_FIELD.getBytes(StandardCharsets.ISO_8859_1);

  enum Kind { NONE, VERSION, TRUNCATED, METADATA, LAYOUT }

  private final Kind kind;
  private final long fromNanos;

  ChunkDamage(Kind kind, long afterNanos) {
    this.kind = kind;
    this.fromNanos = System.nanoTime() + afterNanos;
  }

  /** The damage the system property asks for, or none. */
  static ChunkDamage fromSystemProperty() {
    String value = System.getProperty(PROPERTY, "");
    int colon = value.indexOf(':');
    try {
      Kind kind = Kind.valueOf((colon < 0 ? value : value.substring(0, colon)).trim().toUpperCase(Locale.ROOT));
      long seconds = colon < 0 ? 0 : Long.parseLong(value.substring(colon + 1).trim());
      return new ChunkDamage(kind, seconds * 1_000_000_000L);
    } catch (RuntimeException e) {
      return new ChunkDamage(Kind.NONE, 0);
    }
  }

  private boolean due(Kind of) {
    return kind == of && System.nanoTime() - fromNanos >= 0;
  }

  private boolean due(Kind of, Kind or) {
    return due(of) || due(or);
  }

  /** Damages a header just read ({@link ChunkHeader#SIZE} bytes), if it is time to. */
  void header(ByteBuffer header) {
    if (due(Kind.VERSION)) {
      header.putShort(MAJOR_OFFSET, (short) 3);
      header.putShort(MAJOR_OFFSET + 2, (short) 0);
    } else if (due(Kind.TRUNCATED)) {
      header.putLong(SIZE_OFFSET, header.getLong(SIZE_OFFSET) + (1 << 20));
    }
  }

  /**
   * Damages the metadata event in {@code bytes[0..length)}, which hold the chunk from offset
   * {@code from} on, if it is time to and they hold the one {@code header} points to. Bytes it
   * cannot make sense of are left as they are (the reader says what is wrong with them).
   */
  void metadata(byte[] bytes, long from, int length, ChunkHeader header) {
    long at = header.metadataOffset();
    if (!due(Kind.METADATA, Kind.LAYOUT) || at < from || at >= from + length) {
      return;
    }
    try {
      ChunkInput input = new ChunkInput(bytes, from, length);
      input.position(at);
      for (int i = 0; i < 5; i++) {
        input.readVarLong(); // size, type id 0, start time, duration, metadata id
      }
      long strings = input.readVarLong();
      for (long i = 0; i < strings; i++) {
        long position = input.position();
        String text = input.readString();
        if (kind == Kind.METADATA) {
          bytes[(int) (position - from)] = UNKNOWN_ENCODING;
          return;
        }
        if (RENAMED_FIELD.equals(text)) { // in every encoding JFR writes, its last bytes are these letters
          bytes[(int) (input.position() - from) - RENAMED.length] = (byte) 'S';
        }
      }
    } catch (ChunkFormatException e) {
      // not a metadata event this seam understands: left for the reader to reject
    }
  }
}
