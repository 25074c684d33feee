package io.spanflight.internal.profile;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs the test's Node.js readers (resources next to this class) with the npm package {@code
 * pprof-format} installed under {@code target/pprof-reader}. Skips the calling test, with the
 * reason, when node or npm is missing or the package cannot be installed.
 */
final class NodeScripts {
  static final String PPROF_FORMAT = "pprof-format@2.3.2";
  private static final Path HOME = Paths.get("target", "pprof-reader").toAbsolutePath();

  private NodeScripts() {}

  /** Installs the reader once per build; skips the test when that is impossible. */
  static void requireReader() throws Exception {
    assumeTrue(run(List.of("node", "--version"), 30).ok, "node is not installed: independent pprof reader skipped");
    assumeTrue(run(List.of("npm", "--version"), 30).ok, "npm is not installed: independent pprof reader skipped");
    if (!Files.isDirectory(HOME.resolve("node_modules").resolve("pprof-format"))) {
      Files.createDirectories(HOME);
      Result install =
          run(List.of("npm", "install", "--no-audit", "--no-fund", "--prefix", HOME.toString(), PPROF_FORMAT), 180);
      assumeTrue(install.ok, "npm install " + PPROF_FORMAT + " failed (registry unreachable?): " + install.output);
    }
  }

  /** Runs {@code script} (a resource of this package) on the files; returns its stdout lines. */
  static List<String> run(String script, Path... files) throws Exception {
    Path copy = HOME.resolve(script);
    try (InputStream in = NodeScripts.class.getResourceAsStream(script)) {
      Files.copy(in, copy, StandardCopyOption.REPLACE_EXISTING);
    }
    List<String> command = new ArrayList<>(List.of("node", copy.toString()));
    for (Path file : files) {
      command.add(file.toString());
    }
    Result result = run(command, 60);
    if (!result.ok) {
      throw new AssertionError("node " + script + " failed: " + result.output);
    }
    return Arrays.asList(result.output.split("\n"));
  }

  private static final class Result {
    final boolean ok;
    final String output;

    Result(boolean ok, String output) {
      this.ok = ok;
      this.output = output;
    }
  }

  private static Result run(List<String> command, long timeoutSeconds) throws InterruptedException {
    Process process;
    try {
      process = new ProcessBuilder(command).directory(HOME.getParent().toFile()).redirectErrorStream(true).start();
    } catch (IOException e) {
      return new Result(false, e.toString());
    }
    // Read before waiting so that a full pipe cannot block the child.
    String output;
    try (InputStream in = process.getInputStream()) {
      output = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
    } catch (IOException e) {
      output = e.toString();
    }
    if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      return new Result(false, "timed out: " + output);
    }
    return new Result(process.exitValue() == 0, output);
  }
}
