package io.spanflight.internal.jfr.chunk;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.EnumSet;
import java.util.Set;
import java.util.logging.Logger;

/**
 * Follows the chunk files of JFR's disk repository as JFR writes them, handing each flush to a
 * {@link ChunkReader}: what the JDK's {@code RecordingStream} does, without its parser.
 *
 * <p>Each {@link #poll} reads the current chunk's header (twice around its state byte, as JFR
 * rewrites it in place), then the bytes JFR flushed since the last poll, and moves to the next
 * chunk once JFR has finished this one: the file whose chunk started next, by the start ticks in
 * its header (monotonic, unlike the local time JFR names its files by). The first poll starts with
 * the newest chunk.
 *
 * <p>What it trusts: JFR creates its repository under the temporary directory and uses a
 * directory of the same name that is already there, so someone else may have made it. The
 * follower reads nothing from a repository that is a symbolic link or that is not owned by the
 * user this JVM runs as; if others can write it (a umask of 002, say), it takes their write access
 * away first. It opens only regular files owned by that user, never through a symbolic link: else
 * anyone could plant a chunk whose samples name other threads' stacks.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class RepositoryFollower implements AutoCloseable {
  private static final byte UPDATING = (byte) 255;
  private static final int STATE_OFFSET = 64;
  /** Where a chunk header holds the chunk's start in ticks. */
  private static final int START_TICKS_OFFSET = 48;
  private static final Logger logger = Logger.getLogger(RepositoryFollower.class.getName());

  /** The system property in which JFR names its repository, once it has one. */
  public static final String REPOSITORY_PROPERTY = "jdk.jfr.repository";

  private final Path repository;
  private final ChunkReader reader;
  private final ByteBuffer headerBytes = ByteBuffer.allocate(ChunkHeader.SIZE);
  private final ByteBuffer stateByte = ByteBuffer.allocate(1);
  private final ByteBuffer startTicks = ByteBuffer.allocate(Long.BYTES);
  private byte[] window = new byte[1 << 16];
  private byte[] again = new byte[1 << 12];
  private Path current;
  /** The current chunk's start in ticks. */
  private long currentStart;
  private FileChannel channel;
  private long chunks;
  /** The repository's owner, once checked. */
  private UserPrincipal owner;
  /** Nothing, outside the tests that make our reader fail: see {@link ChunkDamage}. */
  private final ChunkDamage damage = ChunkDamage.fromSystemProperty();

  /** JFR's repository for this JVM (known once a disk recording runs); not yet checked for trust. */
  public static Path current() throws UntrustedRepositoryException {
    String path = System.getProperty(REPOSITORY_PROPERTY);
    if (path == null || path.isEmpty()) {
      throw new UntrustedRepositoryException("JFR names no repository (" + REPOSITORY_PROPERTY + " is not set)");
    }
    return Path.of(path);
  }

  /** False once JFR has moved its repository away from {@code repository} ({@code jcmd JFR.configure}). */
  public static boolean isCurrent(Path repository) {
    return repository.toString().equals(System.getProperty(REPOSITORY_PROPERTY));
  }

  public RepositoryFollower(Path repository, ChunkReader reader) {
    this.repository = repository;
    this.reader = reader;
  }

  /**
   * Reads what JFR has flushed since the last call, through as many chunks as it finished. After a
   * {@link ChunkFormatException}, stop following: the follower stays where the bad flush began,
   * and reading it again would hand out the events before the bad byte a second time.
   */
  public void poll() throws IOException {
    if (owner == null) {
      owner = trustedOwner(repository);
    }
    while (true) {
      if (channel == null && !openNext()) {
        return;
      }
      ChunkHeader header = readHeader();
      if (header == null) {
        return; // JFR is rewriting the header: read it at the next poll
      }
      long from = reader.readUpTo();
      if (header.size() > from) {
        long gained = header.size() - from;
        if (gained > ChunkReader.MAX_FILE_BYTES) {
          throw new ChunkFormatException(current + " grew by " + gained + " bytes, more than the "
              + ChunkReader.MAX_FILE_BYTES + " read at once");
        }
        int length = (int) gained;
        if (window.length < length) {
          window = new byte[Math.max(length, window.length * 2)];
        }
        readFully(ByteBuffer.wrap(window, 0, length), from);
        damage.metadata(window, from, length, header);
        reader.update(new ChunkInput(window, from, length), header, this::readAgain);
      }
      if (!header.finished()) {
        return;
      }
      channel.close();
      channel = null;
    }
  }

  /** Chunks opened so far. */
  public long chunks() {
    return chunks;
  }

  @Override
  public void close() throws IOException {
    if (channel != null) {
      channel.close();
      channel = null;
    }
  }

  /**
   * Opens the chunk that started next after the current one (the newest at first); false when
   * there is none yet.
   */
  private boolean openNext() throws IOException {
    Path next = null;
    long nextStart = 0;
    try (DirectoryStream<Path> files = Files.newDirectoryStream(repository, "*.jfr")) {
      for (Path file : files) {
        long start = startTicksOf(file);
        if (start == Long.MIN_VALUE || (current != null && start <= currentStart)) {
          continue;
        }
        boolean better = next == null || (current == null ? start > nextStart : start < nextStart);
        if (better) {
          next = file;
          nextStart = start;
        }
      }
    }
    if (next == null) {
      return false;
    }
    channel = FileChannel.open(next, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
    current = next;
    currentStart = nextStart;
    chunks++;
    reader.startChunk();
    return true;
  }

  /**
   * The start ticks in the header of {@code file}, or Long.MIN_VALUE when it is not one of ours
   * to read (not a regular file of the repository's owner), is gone, or has no header yet.
   */
  private long startTicksOf(Path file) throws IOException {
    try {
      if (!ownRegularFile(file)) {
        return Long.MIN_VALUE;
      }
      try (FileChannel chunk = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
        if (chunk.size() < ChunkHeader.SIZE) {
          return Long.MIN_VALUE; // JFR has only just created it
        }
        startTicks.clear();
        while (startTicks.hasRemaining() && chunk.read(startTicks, START_TICKS_OFFSET + startTicks.position()) >= 0) {
          // until the 8 bytes are in
        }
        return startTicks.hasRemaining() ? Long.MIN_VALUE : startTicks.getLong(0);
      }
    } catch (NoSuchFileException e) {
      return Long.MIN_VALUE; // JFR removed it meanwhile (older than the recordings keep)
    }
  }

  /**
   * The owner of {@code repository}, which must be a directory (not a link) owned by the user this
   * JVM runs as and that no one else can write: write access of others is taken away first. An
   * {@link UntrustedRepositoryException} says why it cannot be trusted.
   */
  public static UserPrincipal trustedOwner(Path repository) throws IOException {
    BasicFileAttributes basic = Files.readAttributes(repository, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    if (!basic.isDirectory()) {
      throw new UntrustedRepositoryException("JFR's repository " + repository + " is not a directory (or is a symbolic link)");
    }
    UserPrincipal owner = Files.getOwner(repository, LinkOption.NOFOLLOW_LINKS);
    UserPrincipal self = ownerOfNewFileIn(repository);
    if (!owner.equals(self)) {
      throw new UntrustedRepositoryException("JFR's repository " + repository + " belongs to " + owner.getName()
          + ", not to " + self.getName() + ", the user this JVM runs as");
    }
    if (!repository.getFileSystem().supportedFileAttributeViews().contains("posix")) {
      return owner; // no POSIX permissions (Windows): the owner check is what there is
    }
    Set<PosixFilePermission> permissions =
        Files.readAttributes(repository, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS).permissions();
    Set<PosixFilePermission> othersWrite = EnumSet.of(PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_WRITE);
    if (permissions.stream().anyMatch(othersWrite::contains)) {
      Set<PosixFilePermission> tightened = EnumSet.copyOf(permissions);
      tightened.removeAll(othersWrite);
      Files.setPosixFilePermissions(repository, tightened);
      logger.info("Spanflight: JFR's repository " + repository + " was writable by others ("
          + PosixFilePermissions.toString(permissions) + "); it is now " + PosixFilePermissions.toString(tightened));
    }
    return owner;
  }

  /**
   * The user this JVM runs as, as the file system sees it: the owner of a file it creates (under
   * a random name, never an existing file) in {@code directory}, deleted at once.
   */
  private static UserPrincipal ownerOfNewFileIn(Path directory) throws IOException {
    Path probe = Files.createTempFile(directory, ".spanflight-owner-", ".probe");
    try {
      return Files.getOwner(probe, LinkOption.NOFOLLOW_LINKS);
    } finally {
      Files.deleteIfExists(probe);
    }
  }

  private boolean ownRegularFile(Path file) throws IOException {
    BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    return attributes.isRegularFile() && Files.getOwner(file, LinkOption.NOFOLLOW_LINKS).equals(owner);
  }

  /** The header as of JFR's last complete rewrite of it, or null while it rewrites it. */
  private ChunkHeader readHeader() throws IOException {
    if (channel.size() < ChunkHeader.SIZE) {
      return null;
    }
    byte before = readState();
    headerBytes.clear();
    readFully(headerBytes, 0);
    if (before == UPDATING || readState() != before) {
      return null;
    }
    // the file's length after the header was read: it only grows, so the size the header gives
    // was written within it (read before, a flush in between would make a sound header look bad)
    long available = channel.size();
    damage.header(headerBytes);
    return ChunkHeader.read(new ChunkInput(headerBytes.array(), 0, ChunkHeader.SIZE), available);
  }

  /** Bytes of the current chunk read before, for a stack the reader reads again. */
  private ChunkInput readAgain(long offset, int length) throws IOException {
    if (again.length < length) {
      again = new byte[Math.max(length, 2 * again.length)];
    }
    readFully(ByteBuffer.wrap(again, 0, length), offset);
    return new ChunkInput(again, offset, length);
  }

  private byte readState() throws IOException {
    stateByte.clear();
    readFully(stateByte, STATE_OFFSET);
    return stateByte.get(0);
  }

  private void readFully(ByteBuffer buffer, long position) throws IOException {
    long at = position;
    while (buffer.hasRemaining()) {
      int read = channel.read(buffer, at);
      if (read < 0) {
        throw new ChunkFormatException(current + " ended at " + at + ", before the size its header gives");
      }
      at += read;
    }
  }
}
