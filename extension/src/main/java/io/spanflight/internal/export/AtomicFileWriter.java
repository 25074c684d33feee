package io.spanflight.internal.export;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Writes whole files into one directory: each file is written under a hidden temporary name
 * ({@code .<name>.tmp}) and then renamed atomically, so a reader never sees half a file. The
 * directory is created when missing, owner-only ({@code rwx------}) where the file system has
 * POSIX permissions; an existing directory keeps the permissions it has.
 *
 * <p>Not API: internal to Spanflight.
 */
final class AtomicFileWriter {
  private final Path directory;

  AtomicFileWriter(Path directory) {
    this.directory = directory;
  }

  Path directory() {
    return directory;
  }

  /** Writes {@code name} whole; on failure nothing is left behind under either name. */
  void write(String name, byte[] content) throws IOException {
    createDirectory();
    Path temporary = directory.resolve("." + name + ".tmp");
    try {
      Files.write(temporary, content);
      Files.move(temporary, directory.resolve(name), StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException | RuntimeException e) {
      try {
        Files.deleteIfExists(temporary);
      } catch (IOException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
  }

  private void createDirectory() throws IOException {
    if (Files.isDirectory(directory)) {
      return;
    }
    if (directory.getFileSystem().supportedFileAttributeViews().contains("posix")) {
      Files.createDirectories(
          directory, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    } else {
      Files.createDirectories(directory);
    }
  }
}
