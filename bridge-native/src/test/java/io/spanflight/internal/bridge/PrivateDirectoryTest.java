package io.spanflight.internal.bridge;

import static io.spanflight.testsupport.FileModes.mode;
import static java.nio.file.LinkOption.NOFOLLOW_LINKS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.spanflight.testsupport.ForeignOwner;
import io.spanflight.testsupport.OwnTmpdir;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

class PrivateDirectoryTest {
  @TempDir Path tmp;
  @RegisterExtension final OwnTmpdir ownTmpdir = new OwnTmpdir(() -> tmp);

  @Test
  void byDefaultEachIsAFreshOwnerOnlyDirectoryInTmpdir() throws Exception {
    PrivateDirectory first = PrivateDirectory.create(null);
    PrivateDirectory second = PrivateDirectory.create(null);

    assertThat(first.path()).isNotEqualTo(second.path());
    for (PrivateDirectory dir : new PrivateDirectory[] {first, second}) {
      assertThat(dir.path().getParent()).isEqualTo(tmp.toAbsolutePath());
      assertThat(dir.path().getFileName().toString()).startsWith("spanflight-");
      assertThat(mode(dir.path())).isEqualTo("rwx------");
      assertThat(Files.getOwner(dir.path(), NOFOLLOW_LINKS)).isEqualTo(Files.getOwner(tmp));
    }
  }

  @Test
  void writesNewOwnerOnlyFilesAndNeverReusesOrFollowsOne() throws Exception {
    PrivateDirectory dir = PrivateDirectory.create(null);
    Path file = dir.write("lib.so", new byte[] {1, 2, 3});
    assertThat(file.getParent()).isEqualTo(dir.path());
    assertThat(Files.readAllBytes(file)).containsExactly(1, 2, 3);
    assertThat(mode(file)).isEqualTo("rw-------");

    assertThatThrownBy(() -> dir.write("lib.so", new byte[] {4})).hasMessageContaining("cannot write");
    assertThat(Files.readAllBytes(file)).containsExactly(1, 2, 3);

    Path elsewhere = Files.write(tmp.resolve("victim"), new byte[] {9});
    Files.createSymbolicLink(dir.path().resolve("link.jar"), elsewhere);
    assertThatThrownBy(() -> dir.write("link.jar", new byte[] {4})).hasMessageContaining("cannot write");
    assertThat(Files.readAllBytes(elsewhere)).containsExactly(9);

    assertThatThrownBy(() -> dir.write("../escape", new byte[0])).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aConfiguredDirectoryOfThisUserGetsAFreshSubdirectory() throws Exception {
    Path configured = Files.createDirectory(tmp.resolve("native"));
    Files.setPosixFilePermissions(configured, PosixFilePermissions.fromString("rwxr-xr-x"));
    PrivateDirectory dir = PrivateDirectory.create(configured);

    assertThat(dir.path().getParent()).isEqualTo(configured.toAbsolutePath());
    assertThat(mode(dir.path())).isEqualTo("rwx------");
    assertThat(PrivateDirectory.create(configured).path()).isNotEqualTo(dir.path());
  }

  @Test
  void aMissingConfiguredDirectoryIsCreatedOwnerOnly() throws Exception {
    Path configured = tmp.resolve("a").resolve("native");
    PrivateDirectory dir = PrivateDirectory.create(configured);

    assertThat(mode(configured)).isEqualTo("rwx------");
    assertThat(dir.path().getParent()).isEqualTo(configured);
  }

  @Test
  void refusesAConfiguredDirectoryOthersCanWrite() throws Exception {
    for (String shared : new String[] {"rwxrwxr-x", "rwxr-xrwx", "rwxrwxrwx"}) {
      Path configured = Files.createDirectory(tmp.resolve("shared-" + shared.hashCode()));
      Files.setPosixFilePermissions(configured, PosixFilePermissions.fromString(shared));

      assertThatThrownBy(() -> PrivateDirectory.create(configured))
          .hasMessageStartingWith(
              "otel.spanflight.native.directory=" + configured + " is refused: it is writable by group or"
                  + " others (" + shared + ")")
          .hasMessageNotContaining("\n");
      assertThat(configured).isEmptyDirectory();
    }
  }

  @Test
  void refusesAConfiguredDirectoryOwnedByAnotherUser() throws Exception {
    Path configured = Files.createDirectory(tmp.resolve("foreign"));
    Files.setPosixFilePermissions(configured, PosixFilePermissions.fromString("rwxr-xr-x"));
    ForeignOwner.give(configured);

    assertThatThrownBy(() -> PrivateDirectory.create(configured))
        .hasMessageStartingWith(
            "otel.spanflight.native.directory=" + configured + " is refused: it is owned by " + ForeignOwner.UID
                + ", not by ")
        .hasMessageContaining("(this process's user)")
        .hasMessageNotContaining("\n");
    assertThat(configured).isEmptyDirectory();
  }

  @Test
  void refusesAConfiguredDirectoryThatIsASymbolicLink() throws Exception {
    Path real = Files.createDirectory(tmp.resolve("real"));
    Files.setPosixFilePermissions(real, PosixFilePermissions.fromString("rwx------"));
    Path link = Files.createSymbolicLink(tmp.resolve("link"), real);

    assertThatThrownBy(() -> PrivateDirectory.create(link))
        .hasMessage(
            "otel.spanflight.native.directory=" + link + " is refused: it is a symbolic link; expected a directory"
                + " owned by this process's user, writable by no one else, not a symbolic link");
    assertThat(real).isEmptyDirectory();
  }

  @Test
  void refusesAConfiguredPathThatIsAFile() throws Exception {
    Path file = Files.write(tmp.resolve("file"), new byte[0]);

    assertThatThrownBy(() -> PrivateDirectory.create(file))
        .hasMessageStartingWith("otel.spanflight.native.directory=" + file + " is refused: it is not a directory");
  }

  @Test
  void refusesATmpdirOthersCanWriteWithoutTheStickyBit() throws Exception {
    Path open = Files.createDirectory(tmp.resolve("open"));
    Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
    System.setProperty("java.io.tmpdir", open.toString());

    assertThatThrownBy(() -> PrivateDirectory.create(null))
        .hasMessage("java.io.tmpdir=" + open + ": writable by group or others (rwxrwxrwx) without the sticky bit;"
            + " set otel.spanflight.native.directory to a directory of this user");

    Files.setAttribute(open, "unix:mode", 01777);
    assertThat(PrivateDirectory.create(null).path().getParent()).isEqualTo(open);
  }
}
