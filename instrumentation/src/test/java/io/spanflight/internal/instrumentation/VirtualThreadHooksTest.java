package io.spanflight.internal.instrumentation;

import static io.spanflight.testsupport.FileModes.mode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.spanflight.testsupport.OwnTmpdir;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The one-class jar that goes onto the boot class path is written where only this user can write. */
class VirtualThreadHooksTest {
  @TempDir Path tmp;
  @RegisterExtension final OwnTmpdir ownTmpdir = new OwnTmpdir(() -> tmp);

  @Test
  void theHolderJarIsWrittenNewIntoAFreshOwnerOnlyDirectory() throws Exception {
    Path jar = VirtualThreadHooks.holderJar(null);

    assertThat(jar.getParent().getParent()).isEqualTo(tmp);
    assertThat(jar.getParent().getFileName().toString()).startsWith("spanflight-");
    assertThat(mode(jar.getParent())).isEqualTo("rwx------");
    assertThat(mode(jar)).isEqualTo("rw-------");
    try (JarFile file = new JarFile(jar.toFile())) {
      assertThat(file.getEntry(VirtualThreadHooks.HOLDER.replace('.', '/') + ".class")).isNotNull();
    }
    assertThat(VirtualThreadHooks.holderJar(null).getParent()).isNotEqualTo(jar.getParent());
  }

  @Test
  void aConfiguredDirectoryOthersCanWriteOrASymbolicLinkIsRefused() throws Exception {
    Path shared = Files.createDirectory(tmp.resolve("shared"));
    Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
    Path link = Files.createSymbolicLink(tmp.resolve("link"), Files.createDirectory(tmp.resolve("real")));

    assertThatThrownBy(() -> VirtualThreadHooks.holderJar(shared))
        .hasMessageStartingWith("otel.spanflight.native.directory=" + shared + " is refused: it is writable by"
            + " group or others (rwxrwxrwx)");
    assertThatThrownBy(() -> VirtualThreadHooks.holderJar(link))
        .hasMessageStartingWith("otel.spanflight.native.directory=" + link + " is refused: it is a symbolic link");
    assertThat(shared).isEmptyDirectory();
    assertThat(tmp.resolve("real")).isEmptyDirectory();
  }
}
