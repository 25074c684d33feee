package io.spanflight.internal.jfr.chunk;

import java.nio.ByteBuffer;
import java.util.Locale;

/**
 * A test seam, and only that: damages the chunk headers {@link RepositoryFollower} reads, from
 * some seconds after it was made on, as a JDK that writes what Spanflight's reader does not know
 * would. The files stay as JFR wrote them, so the JDK's own stream (the fallback reader) reads
 * them as they are. Set with the system property {@value #PROPERTY} = {@code kind:seconds}:
 *
 * <ul>
 *   <li>{@code version}: the header names chunk format 3.0, a major version the reader does not
 *       know;
 *   <li>{@code truncated}: the header gives the chunk a size a megabyte past the file's end.
 * </ul>
 *
 * <p>Unset (always, outside Spanflight's smoke tests), it does nothing. A wrong value is ignored.
 *
 * <p>Not API: internal to Spanflight.
 */
final class ChunkDamage {
  /** The system property the smoke tests set: {@code version:5} damages every header read 5 s on. */
  static final String PROPERTY = "spanflight.test.damageChunks";
  private static final int MAJOR_OFFSET = 4;
  private static final int SIZE_OFFSET = 8;

  enum Kind { NONE, VERSION, TRUNCATED }

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

  /** Damages a header just read ({@link ChunkHeader#SIZE} bytes), if it is time to. */
  void header(ByteBuffer header) {
    if (kind == Kind.NONE || System.nanoTime() - fromNanos < 0) {
      return;
    }
    if (kind == Kind.VERSION) {
      header.putShort(MAJOR_OFFSET, (short) 3);
      header.putShort(MAJOR_OFFSET + 2, (short) 0);
    } else {
      header.putLong(SIZE_OFFSET, header.getLong(SIZE_OFFSET) + (1 << 20));
    }
  }
}
