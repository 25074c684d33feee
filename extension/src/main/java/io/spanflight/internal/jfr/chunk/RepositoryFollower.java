package io.spanflight.internal.jfr.chunk;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.Set;

/**
 * Follows the chunk files of JFR's disk repository as JFR writes them, handing each flush to a
 * {@link ChunkReader}: what the JDK's {@code RecordingStream} does, without its parser.
 *
 * <p>Each {@link #poll} reads the current chunk's header (twice around its state byte, as JFR
 * rewrites it in place), then the bytes JFR flushed since the last poll, and moves to the next
 * file, in name order, once JFR has finished the chunk. The first poll starts with the newest
 * chunk.
 *
 * <p>What it trusts: JFR creates its repository under the temporary directory and uses a
 * directory of the same name that is already there, so someone else may have made it. The
 * follower reads nothing from a repository that is a symbolic link or that users other than its
 * owner can write, and opens only regular files owned by the directory's owner, never through a
 * symbolic link: else anyone could plant a chunk whose samples name other threads' stacks.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class RepositoryFollower implements AutoCloseable {
  private static final byte UPDATING = (byte) 255;
  private static final int STATE_OFFSET = 64;

  private final Path repository;
  private final ChunkReader reader;
  private final ByteBuffer headerBytes = ByteBuffer.allocate(ChunkHeader.SIZE);
  private final ByteBuffer stateByte = ByteBuffer.allocate(1);
  private byte[] window = new byte[1 << 16];
  private Path current;
  private FileChannel channel;
  private long chunks;
  /** The repository's owner, once checked. */
  private UserPrincipal owner;

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
        reader.update(new ChunkInput(window, from, length), header);
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

  /** Opens the chunk file after the current one (the newest at first); false when there is none yet. */
  private boolean openNext() throws IOException {
    Path next = null;
    try (DirectoryStream<Path> files = Files.newDirectoryStream(repository, "*.jfr")) {
      for (Path file : files) {
        String name = file.getFileName().toString();
        boolean after = current == null || name.compareTo(current.getFileName().toString()) > 0;
        boolean first = current == null
            ? next == null || name.compareTo(next.getFileName().toString()) > 0
            : next == null || name.compareTo(next.getFileName().toString()) < 0;
        if (after && first && ownRegularFile(file)) {
          next = file;
        }
      }
    }
    if (next == null) {
      return false;
    }
    channel = FileChannel.open(next, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
    current = next;
    chunks++;
    reader.startChunk();
    return true;
  }

  /**
   * The owner of {@code repository}, which must be a directory (not a link) that no one else can
   * write; an {@link UntrustedRepositoryException} says why not.
   */
  static UserPrincipal trustedOwner(Path repository) throws IOException {
    PosixFileAttributes attributes = Files.readAttributes(repository, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    if (!attributes.isDirectory()) {
      throw new UntrustedRepositoryException("JFR's repository " + repository + " is not a directory (or is a symbolic link)");
    }
    Set<PosixFilePermission> permissions = attributes.permissions();
    if (permissions.contains(PosixFilePermission.GROUP_WRITE) || permissions.contains(PosixFilePermission.OTHERS_WRITE)) {
      throw new UntrustedRepositoryException("JFR's repository " + repository + " is writable by users other than its owner ("
          + PosixFilePermissions.toString(permissions) + ")");
    }
    return attributes.owner();
  }

  private boolean ownRegularFile(Path file) throws IOException {
    PosixFileAttributes attributes = Files.readAttributes(file, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    return attributes.isRegularFile() && attributes.owner().equals(owner);
  }

  /** The header as of JFR's last complete rewrite of it, or null while it rewrites it. */
  private ChunkHeader readHeader() throws IOException {
    long available = channel.size();
    if (available < ChunkHeader.SIZE) {
      return null;
    }
    byte before = readState();
    headerBytes.clear();
    readFully(headerBytes, 0);
    if (before == UPDATING || readState() != before) {
      return null;
    }
    return ChunkHeader.read(new ChunkInput(headerBytes.array(), 0, ChunkHeader.SIZE), available);
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
