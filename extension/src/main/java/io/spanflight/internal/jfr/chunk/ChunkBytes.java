package io.spanflight.internal.jfr.chunk;

import java.io.IOException;

/**
 * The chunk being read, again: where {@link ChunkStacks} reads a stack the store let go of anew.
 * {@link RepositoryFollower} reads it from the chunk file; a whole recording read at once, from
 * its bytes in memory.
 *
 * <p>Not API: internal to Spanflight.
 */
interface ChunkBytes {
  /** The chunk's bytes from {@code offset} on, at least {@code length} of them. */
  ChunkInput read(long offset, int length) throws IOException;
}
