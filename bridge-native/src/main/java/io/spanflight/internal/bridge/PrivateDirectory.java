package io.spanflight.internal.bridge;

import static java.nio.file.LinkOption.NOFOLLOW_LINKS;
import static java.nio.file.StandardOpenOption.CREATE_NEW;
import static java.nio.file.StandardOpenOption.WRITE;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * A directory that only this process's user can write, for the files Spanflight hands to the JVM
 * by path (the native library to {@code System.load}, jars to the boot class path), so that no
 * other local user can plant or swap them. Each instance is a fresh directory ({@code mkdir},
 * {@code rwx------}, random name {@code spanflight-*}) in a root: {@code java.io.tmpdir}, or the
 * configured {@value #CONFIGURATION_KEY}, which must be a directory (not a symbolic link) owned by
 * this process's user and writable by nobody else. Files are written once, new ({@code
 * CREATE_NEW}, no symbolic link followed, {@code rw-------}); nothing found on disk is reused. The
 * directory and its files are deleted at exit, best effort (on Linux a loaded library or an open
 * jar may be unlinked).
 *
 * <p>This process's user is the owner the kernel gave the directory just created.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class PrivateDirectory {
  /** The configuration key of the root directory, for messages. */
  public static final String CONFIGURATION_KEY = "otel.spanflight.native.directory";

  private static final String EXPECTED =
      "expected a directory owned by this process's user, writable by no one else, not a symbolic link";
  private static final Set<PosixFilePermission> OWNER_ONLY_DIRECTORY = PosixFilePermissions.fromString("rwx------");
  private static final Set<PosixFilePermission> OWNER_ONLY_FILE = PosixFilePermissions.fromString("rw-------");
  private static final int STICKY = 01000;

  private final Path path;
  private final boolean posix;

  private PrivateDirectory(Path path, boolean posix) {
    this.path = path;
    this.posix = posix;
  }

  /**
   * Creates a fresh private directory.
   *
   * @param configured the configured root ({@value #CONFIGURATION_KEY}), null for {@code
   *     java.io.tmpdir}
   * @throws IOException if it cannot be created or fails a check; for a configured root the
   *     message is one line naming the key, the value, the problem and what is expected
   */
  public static PrivateDirectory create(Path configured) throws IOException {
    if (configured == null) {
      Path tmp = Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath();
      try {
        return createIn(tmp, false);
      } catch (IOException e) {
        throw new IOException("java.io.tmpdir=" + tmp + ": " + problem(e), e);
      }
    }
    try {
      Path root = configured.toAbsolutePath();
      boolean posix = isPosix(root);
      if (!Files.exists(root, NOFOLLOW_LINKS)) {
        if (posix) {
          Files.createDirectories(root, ownerOnly(OWNER_ONLY_DIRECTORY));
        } else {
          Files.createDirectories(root);
        }
      }
      return createIn(root, true);
    } catch (IOException e) {
      throw new IOException(CONFIGURATION_KEY + "=" + configured + " is refused: " + problem(e) + "; " + EXPECTED, e);
    }
  }

  /** The directory. */
  public Path path() {
    return path;
  }

  /**
   * Writes a new file {@code name} into the directory ({@code rw-------}); fails if anything is
   * there already. The file is deleted at exit.
   */
  public Path write(String name, byte[] content) throws IOException {
    Path file = path.resolve(name);
    if (!file.getParent().equals(path)) {
      throw new IllegalArgumentException("not a plain file name: " + name);
    }
    Set<OpenOption> options = Set.of(CREATE_NEW, WRITE, NOFOLLOW_LINKS);
    try (SeekableByteChannel out =
        posix ? Files.newByteChannel(file, options, ownerOnly(OWNER_ONLY_FILE)) : Files.newByteChannel(file, options)) {
      file.toFile().deleteOnExit();
      ByteBuffer buffer = ByteBuffer.wrap(content);
      while (buffer.hasRemaining()) {
        out.write(buffer);
      }
    } catch (IOException e) {
      throw new IOException("cannot write " + file + ": " + e, e);
    }
    return file;
  }

  private static PrivateDirectory createIn(Path root, boolean configured) throws IOException {
    boolean posix = isPosix(root);
    if (!posix) {
      Path dir = Files.createTempDirectory(root, "spanflight-");
      dir.toFile().deleteOnExit();
      if (Files.isSymbolicLink(dir) || !Files.isDirectory(dir, NOFOLLOW_LINKS)) {
        throw new IOException(dir + " is not a plain directory");
      }
      return new PrivateDirectory(dir, false);
    }
    // The system's temporary directory may be a symbolic link (the administrator's choice); a
    // configured one may not.
    PosixFileAttributes rootAttributes = configured
        ? Files.readAttributes(root, PosixFileAttributes.class, NOFOLLOW_LINKS)
        : Files.readAttributes(root, PosixFileAttributes.class);
    if (configured) {
      refuseShared(rootAttributes);
    } else if (sharedWritable(rootAttributes) && !isSticky(root)) {
      throw new IOException("writable by group or others (" + mode(rootAttributes) + ") without the sticky bit;"
          + " set " + CONFIGURATION_KEY + " to a directory of this user");
    }
    Path dir = Files.createTempDirectory(root, "spanflight-", ownerOnly(OWNER_ONLY_DIRECTORY));
    dir.toFile().deleteOnExit();
    try {
      PosixFileAttributes attributes = Files.readAttributes(dir, PosixFileAttributes.class, NOFOLLOW_LINKS);
      String self = attributes.owner().getName();
      if (configured && !rootAttributes.owner().equals(attributes.owner())) {
        throw new IOException("it is owned by " + rootAttributes.owner().getName() + ", not by " + self
            + " (this process's user)");
      }
      if (!attributes.isDirectory() || !OWNER_ONLY_DIRECTORY.containsAll(attributes.permissions())) {
        throw new IOException("the new directory " + dir + " is not an owner-only directory (" + mode(attributes) + ")");
      }
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(dir);
      throw e;
    }
    return new PrivateDirectory(dir, true);
  }

  private static void refuseShared(PosixFileAttributes attributes) throws IOException {
    if (attributes.isSymbolicLink()) {
      throw new IOException("it is a symbolic link");
    }
    if (!attributes.isDirectory()) {
      throw new IOException("it is not a directory");
    }
    if (sharedWritable(attributes)) {
      throw new IOException("it is writable by group or others (" + mode(attributes) + ")");
    }
  }

  private static boolean sharedWritable(PosixFileAttributes attributes) {
    Set<PosixFilePermission> permissions = attributes.permissions();
    return permissions.contains(PosixFilePermission.GROUP_WRITE)
        || permissions.contains(PosixFilePermission.OTHERS_WRITE);
  }

  private static boolean isSticky(Path dir) throws IOException {
    if (!dir.getFileSystem().supportedFileAttributeViews().contains("unix")) {
      return false;
    }
    return ((Integer) Files.getAttribute(dir, "unix:mode") & STICKY) != 0;
  }

  /** A check's own message, or the JDK's exception with its type (its message is often just a path). */
  private static String problem(IOException e) {
    return e.getClass() == IOException.class ? e.getMessage() : e.toString();
  }

  private static boolean isPosix(Path path) {
    return path.getFileSystem().supportedFileAttributeViews().contains("posix");
  }

  private static String mode(PosixFileAttributes attributes) {
    return PosixFilePermissions.toString(attributes.permissions());
  }

  private static FileAttribute<Set<PosixFilePermission>> ownerOnly(Set<PosixFilePermission> permissions) {
    return PosixFilePermissions.asFileAttribute(permissions);
  }
}
