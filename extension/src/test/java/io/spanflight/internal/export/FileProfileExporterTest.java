package io.spanflight.internal.export;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
}
