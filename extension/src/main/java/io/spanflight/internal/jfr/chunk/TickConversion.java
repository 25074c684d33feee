package io.spanflight.internal.jfr.chunk;

import io.spanflight.internal.jfr.chunk.ChunkMetadata.Field;

/**
 * Converts the ticks of every chunk a {@link ChunkReader} reads to nanoseconds, as the JDK's parser
 * converts them: with the header of the first chunk read, for every chunk after it. (Each chunk's
 * header pairs a wall-clock time with a tick count read just after it; anchored anew at every
 * chunk, times would step by that pairing's error, microseconds, at chunk boundaries, and differ
 * from the JDK's for the same event.)
 *
 * <p>Not API: internal to Spanflight.
 */
final class TickConversion {
  /** The first chunk's header, or null before any was read. */
  private ChunkHeader clock;

  /** Anchors the conversion at {@code chunk} if no chunk was read before. */
  void anchor(ChunkHeader chunk) {
    if (clock == null) {
      clock = chunk;
    }
  }

  /** Whether a chunk header has been read, so that {@link #nanos} converts ticks. */
  boolean anchored() {
    return clock != null;
  }

  /** Wall-clock nanoseconds since the epoch for a time in ticks. */
  long nanos(long ticks) {
    return clock.nanos(ticks);
  }

  /** Nanoseconds for a duration in ticks. */
  long span(long ticks) {
    return clock.span(ticks);
  }

  /** A duration field's value in nanoseconds (see {@link Field#nanosPerUnit}); any other as it is. */
  long inNanos(long value, Field field) {
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
}
