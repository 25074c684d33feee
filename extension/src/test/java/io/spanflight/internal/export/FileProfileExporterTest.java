package io.spanflight.internal.export;

import static io.spanflight.testsupport.FileModes.mode;
import static java.nio.file.LinkOption.NOFOLLOW_LINKS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.spanflight.internal.LogLines;
import io.spanflight.internal.config.SpanflightConfig.FileFormat;
import io.spanflight.testsupport.ForeignOwner;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.logging.Level;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileProfileExporterTest {
  @TempDir Path dir;

  private static List<String> names(Path directory) throws Exception {
    try (Stream<Path> files = Files.list(directory)) {
      return files.map(f -> f.getFileName().toString()).sorted().collect(Collectors.toList());
    }
  }

  @Test
  void writesEachRequestWholeUnderItsFinalNameOnly() throws Exception {
    FileProfileExporter exporter = new FileProfileExporter(dir.resolve("out"));
    assertThat(exporter.export(new byte[] {7}).isSuccess()).isTrue();
    assertThat(exporter.export(new byte[] {8, 9}).isSuccess()).isTrue();

    List<String> names = names(dir.resolve("out"));
    assertThat(names).hasSize(2).allMatch(n -> n.matches("spanflight-\\d+-\\d+-[12]\\.binpb"));
    assertThat(Files.readAllBytes(dir.resolve("out").resolve(names.get(0))).length
            + Files.readAllBytes(dir.resolve("out").resolve(names.get(1))).length)
        .isEqualTo(3);
  }

  @Test
  void reportsAFailureAndLeavesNoTemporaryFile() throws Exception {
    Path notADirectory = Files.write(dir.resolve("taken"), new byte[0]);
    FileProfileExporter exporter = new FileProfileExporter(notADirectory);
    assertThat(exporter.export(new byte[] {1}).isSuccess()).isFalse();
    assertThat(names(dir)).containsExactly("taken");
  }

  @Test
  void filesAreOwnerOnlyWhateverTheUmask() throws Exception {
    FileProfileExporter exporter = new FileProfileExporter(dir.resolve("out"));
    assertThat(exporter.export(new byte[] {7}).isSuccess()).isTrue();

    assertThat(mode(dir.resolve("out"))).isEqualTo("rwx------");
    assertThat(mode(dir.resolve("out").resolve(names(dir.resolve("out")).get(0)))).isEqualTo("rw-------");
  }

  @Test
  void aSymbolicLinkPlantedAtTheTemporaryNameIsNeverFollowed() throws Exception {
    Path victim = Files.write(dir.resolve("victim"), new byte[] {1});
    Path out = Files.createDirectory(dir.resolve("out"));
    Files.createSymbolicLink(out.resolve(".p.binpb.tmp"), victim);

    assertThatThrownBy(() -> new AtomicFileWriter(out).write("p.binpb", new byte[] {7, 7}))
        .isInstanceOf(FileAlreadyExistsException.class);
    assertThat(Files.readAllBytes(victim)).containsExactly(1);
    assertThat(Files.readSymbolicLink(out.resolve(".p.binpb.tmp"))).isEqualTo(victim);
    assertThat(names(out)).containsExactly(".p.binpb.tmp");
  }

  @Test
  void aSymbolicLinkPlantedAtTheFinalNameIsNeitherFollowedNorReplaced() throws Exception {
    Path victim = Files.write(dir.resolve("victim"), new byte[] {1});
    Path out = Files.createDirectory(dir.resolve("out"));
    Files.createSymbolicLink(out.resolve("p.binpb"), victim);

    assertThatThrownBy(() -> new AtomicFileWriter(out).write("p.binpb", new byte[] {7, 7}))
        .isInstanceOf(FileAlreadyExistsException.class);
    assertThat(Files.readAllBytes(victim)).containsExactly(1);
    assertThat(Files.readSymbolicLink(out.resolve("p.binpb"))).isEqualTo(victim);
    assertThat(names(out)).containsExactly("p.binpb");
  }

  @Test
  void anotherUsersFileAtTheFinalNameIsNotOverwritten() throws Exception {
    Path out = Files.createDirectory(dir.resolve("out"));
    Path planted = Files.write(out.resolve("p.binpb"), new byte[] {1});
    ForeignOwner.give(planted);

    assertThatThrownBy(() -> new AtomicFileWriter(out).write("p.binpb", new byte[] {7, 7}))
        .isInstanceOf(FileAlreadyExistsException.class);
    assertThat(Files.readAllBytes(planted)).containsExactly(1);
    assertThat(Files.getAttribute(planted, "unix:uid", NOFOLLOW_LINKS)).isEqualTo(ForeignOwner.UID);
    assertThat(names(out)).containsExactly("p.binpb");
  }

  @Test
  void theExporterSkipsAndCountsEachRefusedFileWithAThrottledWarning() throws Exception {
    Path out = Files.createDirectory(dir.resolve("out"));
    Path victim = Files.write(dir.resolve("victim"), new byte[] {1});
    String prefix = "spanflight-1000-" + ProcessHandle.current().pid() + "-";
    Files.createSymbolicLink(out.resolve(prefix + "1.binpb"), victim);
    Files.createSymbolicLink(out.resolve("." + prefix + "2.binpb.tmp"), victim);
    FileProfileExporter exporter =
        new FileProfileExporter(out, EnumSet.of(FileFormat.OTLP), null, () -> 1000L);
    LogLines lines = LogLines.listen(FileProfileExporter.class);
    try {
      assertThat(exporter.export(new byte[] {7}).isSuccess()).isFalse();
      assertThat(exporter.export(new byte[] {7}).isSuccess()).isFalse();
      assertThat(exporter.export(new byte[] {7}).isSuccess()).isTrue();
    } finally {
      lines.close();
    }

    assertThat(exporter.refusedFiles()).isEqualTo(2);
    assertThat(lines.records()).singleElement().satisfies(record -> {
      assertThat(record.getLevel()).isEqualTo(Level.WARNING);
      assertThat(record.getMessage())
          .isEqualTo("Spanflight did not write " + out.resolve(prefix + "1.binpb") + ": a file or symbolic link is"
              + " already there (not Spanflight's); it is left as it is (1 file(s) refused so far)");
    });
    assertThat(Files.readAllBytes(victim)).containsExactly(1);
    assertThat(names(out)).containsExactly("." + prefix + "2.binpb.tmp", prefix + "1.binpb", prefix + "3.binpb");
  }
}
