package io.spanflight.internal.export;

import static java.nio.file.LinkOption.NOFOLLOW_LINKS;
import static java.nio.file.StandardOpenOption.CREATE_NEW;
import static java.nio.file.StandardOpenOption.WRITE;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Writes whole, new, owner-only files into one directory that other users may share: each file is
 * written under a hidden temporary name ({@code .<name>.tmp}, created new, {@code rw-------}, no
 * symbolic link followed) and then hard-linked to its final name, which fails if anything is there
 * (a file or a symbolic link planted by someone else is left alone, never followed or
 * overwritten); a reader never sees half a file. Where the file system has no hard links, the
 * final name is checked and the file renamed instead. The directory is created when missing,
 * owner-only ({@code rwx------}) where the file system has POSIX permissions; an existing directory
 * keeps the permissions it has.
 *
 * <p>Not API: internal to Spanflight.
 */
final class AtomicFileWriter {
  private static final Set<OpenOption> NEW_FILE = Set.of(CREATE_NEW, WRITE, NOFOLLOW_LINKS);

  private final Path directory;

  AtomicFileWriter(Path directory) {
    this.directory = directory;
  }

  Path directory() {
    return directory;
  }

  /**
   * Writes {@code name} whole; on failure nothing of ours is left behind under either name.
   *
   * @throws FileAlreadyExistsException if something is already at the final or the temporary name
   *     (it is left as it is)
   */
  void write(String name, byte[] content) throws IOException {
    boolean posix = createDirectory();
    Path temporary = directory.resolve("." + name + ".tmp");
    Path target = directory.resolve(name);
    try (SeekableByteChannel out = posix
        ? Files.newByteChannel(
            temporary, NEW_FILE, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))
        : Files.newByteChannel(temporary, NEW_FILE)) {
      ByteBuffer buffer = ByteBuffer.wrap(content);
      while (buffer.hasRemaining()) {
        out.write(buffer);
      }
    } catch (FileAlreadyExistsException e) {
      throw e; // not ours: not deleted
    } catch (IOException | RuntimeException e) {
      deleteQuietly(temporary, e);
      throw e;
    }
    try {
      publish(temporary, target);
    } catch (IOException | RuntimeException e) {
      deleteQuietly(temporary, e);
      throw e;
    }
  }

  /** Gives the temporary file its final name unless something is there already. */
  private static void publish(Path temporary, Path target) throws IOException {
    try {
      Files.createLink(target, temporary); // link(2): fails with EEXIST, follows nothing
      Files.delete(temporary);
      return;
    } catch (FileAlreadyExistsException e) {
      throw e;
    } catch (UnsupportedOperationException | FileSystemException noHardLinks) {
      // e.g. FAT or some network file systems: check, then rename (a narrow race remains there)
    }
    if (Files.exists(target, NOFOLLOW_LINKS)) {
      throw new FileAlreadyExistsException(target.toString());
    }
    Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE);
  }

  private static void deleteQuietly(Path temporary, Exception cause) {
    try {
      Files.deleteIfExists(temporary);
    } catch (IOException suppressed) {
      cause.addSuppressed(suppressed);
    }
  }

  /** Creates the directory if missing; returns whether it has POSIX permissions. */
  private boolean createDirectory() throws IOException {
    boolean posix = directory.getFileSystem().supportedFileAttributeViews().contains("posix");
    if (Files.isDirectory(directory)) {
      return posix;
    }
    if (posix) {
      Files.createDirectories(
          directory, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    } else {
      Files.createDirectories(directory);
    }
    return posix;
  }
}
