package io.spanflight.internal.jfr.chunk;

import java.io.IOException;

/**
 * A JFR chunk that cannot be read as one: bad magic or version, a length or count past its bounds,
 * a reference to a type the chunk's metadata does not declare. The message says what and where.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class ChunkFormatException extends IOException {
  private static final long serialVersionUID = 1L;

  ChunkFormatException(String message) {
    super(message);
  }
}
