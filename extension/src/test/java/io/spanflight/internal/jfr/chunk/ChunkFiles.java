package io.spanflight.internal.jfr.chunk;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** The committed recordings the reader tests read (see {@link ChunkFixture}). */
final class ChunkFiles {
  private ChunkFiles() {}

  /** The fixture's bytes. */
  static byte[] bytes(String name) throws IOException {
    try (InputStream in = ChunkFiles.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IOException("no fixture " + name);
      }
      return in.readAllBytes();
    }
  }

  /** The fixture copied into {@code dir}. */
  static Path fixture(String name, Path dir) throws IOException {
    return Files.write(dir.resolve(name), bytes(name));
  }
}
