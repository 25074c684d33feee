package io.spanflight.internal.bridge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.spanflight.testsupport.ForeignOwner;
import io.spanflight.testsupport.OldTempNames;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Another local user plants, in the shared temporary directory, the file name earlier versions
 * extracted the library to ({@code libspanflight-<first 8 bytes of its SHA-256>.so}) and reused
 * when its content matched, to swap it between that check and {@code System.load}. Each case
 * starts a JVM of its own ({@link NativeLoadProbe}) with {@code java.io.tmpdir} set to a test
 * directory.
 */
class NativeLibraryPlantingTest {
  @TempDir Path tmp;
  private byte[] library;
  private Path oldName;

  @BeforeEach
  void readLibrary() throws Exception {
    assumeTrue(NativeLibrary.isPackaged(), "libspanflight.so is only built on Linux x86_64 with gcc");
    try (InputStream in = NativeLibrary.class.getResourceAsStream(NativeLibrary.RESOURCE)) {
      library = in.readAllBytes();
    }
    oldName = tmp.resolve(OldTempNames.of("libspanflight-", library, ".so"));
  }

  @Test
  void aPlantedFileAtTheOldNameIsNeverLoaded() throws Exception {
    Files.write(oldName, library);
    ForeignOwner.give(oldName);

    List<String> out = probe(tmp);
    assertLoadedFromAFreshPrivateDirectory(out, oldName);
  }

  @Test
  void aPlantedSymbolicLinkAtTheOldNameIsNeverFollowed() throws Exception {
    Path planted = Files.write(tmp.resolve("planted.so"), library);
    Files.createSymbolicLink(oldName, planted);

    List<String> out = probe(tmp);
    assertLoadedFromAFreshPrivateDirectory(out, planted);
  }

  @Test
  void aRefusedConfiguredDirectoryLeavesTheJavaBridgeAndOneClearWarning() throws Exception {
    Path configured = Files.createDirectory(tmp.resolve("native"));
    Files.setPosixFilePermissions(configured, PosixFilePermissions.fromString("rwxrwxrwx"));

    List<String> out = probe(tmp, configured.toString());
    assertThat(out).contains("bridge=java (no native thread-context record)", "loaded=null", "mapped=");
    assertThat(out)
        .filteredOn(line -> line.contains("otel.spanflight.native.directory"))
        .singleElement()
        .asString()
        .startsWith("WARNING: Spanflight context bridge: java (no native thread-context record); native bridge"
            + " not used: otel.spanflight.native.directory=" + configured + " is refused: it is writable by"
            + " group or others (rwxrwxrwx); expected a directory owned by this process's user, writable by no"
            + " one else, not a symbolic link");
    assertThat(configured).isEmptyDirectory();
  }

  private void assertLoadedFromAFreshPrivateDirectory(List<String> out, Path planted) throws IOException {
    assertThat(out).contains("bridge=native linux-x86_64 (OTEP-4947 record otel_thread_ctx_v1)");
    String loaded = value(out, "loaded=");
    assertThat(Path.of(loaded).getParent().getParent()).isEqualTo(tmp);
    assertThat(Path.of(loaded).getParent().getFileName().toString()).startsWith("spanflight-");
    assertThat(value(out, "mapped=").split(",")).containsExactly(loaded);
    // the planted files are untouched, and the private directory is gone with its JVM
    assertThat(Files.readAllBytes(planted)).isEqualTo(library);
    try (Stream<Path> left = Files.list(tmp)) {
      assertThat(left.map(p -> p.getFileName().toString()))
          .noneMatch(name -> name.startsWith("spanflight-"));
    }
  }

  private static String value(List<String> out, String prefix) {
    return out.stream().filter(line -> line.startsWith(prefix)).findFirst().orElseThrow().substring(prefix.length());
  }

  /** Runs {@link NativeLoadProbe} to its end; returns its output lines, stderr after stdout. */
  private static List<String> probe(Path tmpdir, String... args) throws Exception {
    String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Djava.io.tmpdir=" + tmpdir,
        "-cp", classPath,
        NativeLoadProbe.class.getName()));
    command.addAll(List.of(args));
    Path stderr = Files.createTempFile("spanflight-probe-", ".err");
    try {
      Process process = new ProcessBuilder(command).redirectError(stderr.toFile()).start();
      String stdout = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("probe JVM ended").isTrue();
      List<String> lines = new ArrayList<>(stdout.lines().collect(Collectors.toList()));
      lines.addAll(Files.readAllLines(stderr));
      assertThat(process.exitValue()).as("probe exit status; output: %s", lines).isZero();
      return lines;
    } finally {
      Files.delete(stderr);
    }
  }
}
