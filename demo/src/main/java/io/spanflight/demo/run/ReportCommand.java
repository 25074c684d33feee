package io.spanflight.demo.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * {@code java -jar spanflight.jar report <profiles> --out <html>}: the HTML report and the
 * per-endpoint summary, made by the extension jar's own command line. Older jars have no command
 * line; then the demo says where the profiles are instead.
 */
final class ReportCommand {
  private final Path java;
  private final Path extensionJar;

  ReportCommand(Path java, Path extensionJar) {
    this.java = java;
    this.extensionJar = extensionJar;
  }

  /** Whether the jar declares a {@code Main-Class}, i.e. has a command line at all. */
  boolean available() throws IOException {
    try (JarFile jar = new JarFile(extensionJar.toFile())) {
      Manifest manifest = jar.getManifest();
      return manifest != null && manifest.getMainAttributes().getValue("Main-Class") != null;
    }
  }

  /** Runs the report command with its output on ours; returns its exit code. */
  int run(Path profiles, Path html) throws IOException, InterruptedException {
    Files.createDirectories(html.toAbsolutePath().getParent());
    List<String> command = List.of(java.toString(), "-jar", extensionJar.toString(), "report",
        profiles.toString(), "--out", html.toString());
    return new ProcessBuilder(command).inheritIO().start().waitFor();
  }
}
