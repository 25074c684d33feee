package io.spanflight.internal.capture;

import static java.nio.file.LinkOption.NOFOLLOW_LINKS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.spanflight.internal.bridge.PrivateDirectory;
import io.spanflight.internal.config.SpanflightConfig;
import io.spanflight.testsupport.ForeignOwner;
import io.spanflight.testsupport.OldTempNames;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The API jar goes onto the boot class path: another local user must not be able to hand the JVM
 * their own jar by planting the name earlier versions used in the shared temporary directory
 * ({@code spanflight-api-<first 8 bytes of its SHA-256>.jar}, reused when its content matched).
 * Runs in its own JVM (surefire forks one per test class), so java.io.tmpdir may be changed.
 */
class ApiBootstrapTest {
  @TempDir Path tmp;
  private byte[] apiJar;
  private Path oldName;

  @BeforeEach
  void plantInOwnTmpdir() throws Exception {
    System.setProperty("java.io.tmpdir", tmp.toString());
    try (InputStream in = ApiBootstrap.class.getResourceAsStream(ApiBootstrap.API_JAR)) {
      apiJar = in.readAllBytes();
    }
    oldName = tmp.resolve(OldTempNames.of("spanflight-api-", apiJar, ".jar"));
  }

  @Test
  void aPlantedJarAtTheOldNameIsNeverUsed() throws Exception {
    Files.write(oldName, apiJar);
    ForeignOwner.give(oldName);

    assertWrittenFreshAndPrivately(ApiBootstrap.extract(null));
    assertThat(Files.readAllBytes(oldName)).isEqualTo(apiJar);
  }

  @Test
  void aPlantedSymbolicLinkAtTheOldNameIsNeverFollowed() throws Exception {
    Path planted = Files.write(tmp.resolve("planted.jar"), apiJar);
    Files.createSymbolicLink(oldName, planted);

    assertWrittenFreshAndPrivately(ApiBootstrap.extract(null));
    assertThat(Files.readAllBytes(planted)).isEqualTo(apiJar);
  }

  @Test
  void aConfiguredDirectoryOthersCanWriteIsRefusedWithTheKeyAndValue() throws Exception {
    Path configured = Files.createDirectory(tmp.resolve("native"));
    Files.setPosixFilePermissions(configured, PosixFilePermissions.fromString("rwxrwx---"));

    assertThatThrownBy(() -> ApiBootstrap.extract(configured))
        .hasMessageStartingWith(SpanflightConfig.NATIVE_DIRECTORY + "=" + configured
            + " is refused: it is writable by group or others (rwxrwx---)");
    assertThat(PrivateDirectory.CONFIGURATION_KEY).isEqualTo(SpanflightConfig.NATIVE_DIRECTORY);
  }

  private void assertWrittenFreshAndPrivately(Path jar) throws Exception {
    assertThat(jar.getParent().getParent()).isEqualTo(tmp);
    assertThat(jar.getParent().getFileName().toString()).startsWith("spanflight-");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(jar.getParent(), NOFOLLOW_LINKS)))
        .isEqualTo("rwx------");
    assertThat(Files.isSymbolicLink(jar)).isFalse();
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(jar, NOFOLLOW_LINKS)))
        .isEqualTo("rw-------");
    assertThat(Files.readAllBytes(jar)).isEqualTo(apiJar);
  }
}
