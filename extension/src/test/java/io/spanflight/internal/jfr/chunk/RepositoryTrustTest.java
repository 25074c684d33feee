package io.spanflight.internal.jfr.chunk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.spanflight.internal.jfr.chunk.ChunkSamples.Sample;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What {@link RepositoryFollower} refuses to read, and the control it does read. */
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
  void aRepositoryOthersCanWriteIsRefused() throws Exception {
    Path repository = repository("rwxrwxr-x");
    Files.copy(ChunkFiles.fixture("jdk25.jfr", dir), repository.resolve("2026_11_27_10_00_00.jfr"));

    assertThatThrownBy(() -> follow(repository, 0)).isInstanceOf(UntrustedRepositoryException.class)
        .hasMessageContaining("writable by users other than its owner").hasMessageContaining("rwxrwxr-x");
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
