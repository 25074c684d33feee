package io.spanflight.smoke;

import static org.assertj.core.api.Assertions.assertThat;

import io.spanflight.smoke.harness.Jdk;
import io.spanflight.smoke.harness.SmokePaths;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** Runs {@code java -jar spanflight.jar report <profiles> --out <html>} as its own process. */
final class ReportCli {
  private ReportCli() {}

  /** The command's output (stdout and stderr), after checking that it exited with 0. */
  static String run(Jdk jdk, SmokePaths paths, Path profiles, Path html) throws Exception {
    Files.createDirectories(html.toAbsolutePath().getParent());
    Path log = html.resolveSibling("report-command.log");
    Process process = new ProcessBuilder(jdk.java().toString(), "-jar", paths.extensionJar().toString(),
        "report", profiles.toString(), "--out", html.toString())
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    if (!process.waitFor(3, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      throw new AssertionError("report command did not finish within 3 minutes; output in " + log);
    }
    String output = Files.readString(log, StandardCharsets.UTF_8);
    assertThat(process.exitValue()).as(output).isZero();
    assertThat(output).contains("Report: " + html.toAbsolutePath().normalize());
    return output;
  }
}
