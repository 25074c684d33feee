package io.spanflight.internal.jfr.chunk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.spanflight.internal.jfr.chunk.ChunkSamples.Sample;
import io.spanflight.testsupport.ForeignOwner;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What {@link RepositoryFollower} refuses to read, what it reads, and in which order. */
class RepositoryTrustTest {
  @TempDir Path dir;

  @Test
  void aChunkFileInARepositoryOnlyItsOwnerCanWriteIsRead() throws Exception {
    Path repository = repository("rwx------");
    Files.copy(ChunkFiles.fixture("jdk25.jfr", dir), repository.resolve("2026_11_27_10_00_00.jfr"));

    List<Sample> read = follow(repository, 1);

    assertThat(read).isNotEmpty();
  }

  @Test
  void aChunkFileThatIsASymbolicLinkIsNotOpened() throws Exception {
    Path repository = repository("rwx------");
    Files.createSymbolicLink(repository.resolve("2026_11_27_10_00_00.jfr"), ChunkFiles.fixture("jdk25.jfr", dir));

    List<Sample> read = follow(repository, 0);

    assertThat(read).isEmpty();
  }

  @Test
  void aRepositoryOthersCanWriteIsMadePrivateBeforeItIsRead() throws Exception {
    Path repository = repository("rwxrwxrwx");
    Files.copy(ChunkFiles.fixture("jdk25.jfr", dir), repository.resolve("2026_11_27_10_00_00.jfr"));

    List<Sample> read = follow(repository, 1);

    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(repository))).isEqualTo("rwxr-xr-x");
    assertThat(read).isNotEmpty();
  }

  @Test
  void aRepositoryOfAnotherUserIsRefused() throws Exception {
    Path repository = repository("rwxr-xr-x");
    ForeignOwner.give(repository);

    assertThatThrownBy(() -> follow(repository, 0)).isInstanceOf(UntrustedRepositoryException.class)
        .hasMessageContaining("belongs to");
  }

  @Test
  void aChunkFileOfAnotherUserIsNotOpened() throws Exception {
    Path repository = repository("rwx------");
    Path chunk = Files.copy(ChunkFiles.fixture("jdk25.jfr", dir), repository.resolve("2026_11_27_10_00_00.jfr"));
    ForeignOwner.give(chunk);

    assertThat(follow(repository, 0)).isEmpty();
  }

  /**
   * Chunks are followed in the order they started, not in the order of their names: JFR names
   * them by local time, which a daylight-saving change or a clock step turns back.
   */
  @Test
  void chunksAreFollowedInTheOrderTheyStartedWhateverTheirNames() throws Exception {
    Path repository = repository("rwx------");
    byte[][] chunks = chunksOf(ChunkFiles.bytes("jdk25.jfr"));
    assertThat(chunks.length).as("chunks in the fixture").isGreaterThanOrEqualTo(3);
    List<Sample> read = new ArrayList<>();
    List<Sample> expected = new ArrayList<>();
    ConstantStore store = new ConstantStore();
    try (RepositoryFollower follower = new RepositoryFollower(repository, ChunkSamples.reader(store, read))) {
      Files.write(repository.resolve("2026_11_27_02_30_00.jfr"), chunks[0]);
      follower.poll();
      Files.write(repository.resolve("2026_11_27_02_10_00.jfr"), chunks[1]); // the clock went back
      Files.write(repository.resolve("2026_11_27_02_05_00.jfr"), chunks[2]);
      follower.poll();
      assertThat(follower.chunks()).isEqualTo(3);
    }
    ChunkSamples.reader(new ConstantStore(), expected).read(ChunkFiles.fixture("jdk25.jfr", dir));

    assertThat(read).isNotEmpty().containsExactlyElementsOf(expected.subList(0, read.size()));
    assertThat(read.size()).as("the three chunks' samples").isEqualTo(expected.size());
  }

  /** The chunks of a recording file, each as its own bytes (a chunk's size is at offset 8). */
  private static byte[][] chunksOf(byte[] file) {
    List<byte[]> chunks = new ArrayList<>();
    for (int at = 0; at < file.length; ) {
      int size = (int) ByteBuffer.wrap(file, at + 8, 8).getLong();
      chunks.add(Arrays.copyOfRange(file, at, at + size));
      at += size;
    }
    return chunks.toArray(byte[][]::new);
  }

  @Test
  void aRepositoryThatIsASymbolicLinkIsRefused() throws Exception {
    Path link = Files.createSymbolicLink(dir.resolve("link"), repository("rwx------"));

    assertThatThrownBy(() -> follow(link, 0)).isInstanceOf(UntrustedRepositoryException.class)
        .hasMessageContaining("symbolic link");
  }

  private Path repository(String permissions) throws Exception {
    Path repository = Files.createDirectory(dir.resolve("repository"));
    Files.setPosixFilePermissions(repository, PosixFilePermissions.fromString(permissions));
    return repository;
  }

  /** Polls once; checks how many chunks were opened. */
  private static List<Sample> follow(Path repository, int chunks) throws Exception {
    List<Sample> read = new ArrayList<>();
    try (RepositoryFollower follower = new RepositoryFollower(repository, ChunkSamples.reader(new ConstantStore(), read))) {
      follower.poll();
      assertThat(follower.chunks()).as("chunks opened").isEqualTo(chunks);
    }
    return read;
  }
}
