package io.spanflight.smoke.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A program the smoke tests build with Go and run as a process of its own (the OpenTelemetry
 * Collector, the OpAMP server, Jaeger): its binary found once (or waited for while a background
 * build makes it), its output appended to one log over all its runs, started until its ready line
 * appears, killed or stopped.
 */
public final class GoProgram {
  /** How long a binary's build running in the background is waited for (a cold Go build included). */
  public static final Duration BACKGROUND_BUILD_TIMEOUT = Duration.ofMinutes(30);
  private final String name;
  private final Path log;
  private final String ready;
  private final Duration startTimeout;
  private final Duration stopTimeout;
  private Process process;

  /**
   * @param name how messages name it ("the Collector")
   * @param ready what its log says once it is ready (counted per run)
   */
  public GoProgram(String name, Path log, String ready, Duration startTimeout, Duration stopTimeout) {
    this.name = name;
    this.log = log;
    this.ready = ready;
    this.startTimeout = startTimeout;
    this.stopTimeout = stopTimeout;
  }

  /**
   * The binary: the system property {@code property} when set (bin/test sets it), else the last line
   * {@code script} (a build script under the repository root) prints, remembered in the property.
   *
   * <p>When the system property {@code property + ".build"} names a file too, the binary is still
   * being built in the background (bin/test starts {@code script} so, to overlap a long Go build with
   * Maven's): the build writes that file once it has ended, with the script's output and then a line
   * {@code exit <status>}. This waits for the file (at most {@link #BACKGROUND_BUILD_TIMEOUT}) and
   * fails with the build's output unless it says {@code exit 0}.
   */
  public static synchronized Path binary(Path repoRoot, String property, String script)
      throws IOException, InterruptedException {
    String building = System.getProperty(property + ".build");
    if (building != null && !building.isBlank()) {
      awaitBackgroundBuild(Path.of(building), script);
    }
    String given = System.getProperty(property);
    if (given != null && !given.isBlank()) {
      return Path.of(given);
    }
    Process build = new ProcessBuilder(repoRoot.resolve(script).toString())
        .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    String output = new String(build.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    if (build.waitFor() != 0 || output.isEmpty()) {
      throw new IllegalStateException(script + " failed (exit " + build.exitValue() + "); it needs Go");
    }
    String path = output.lines().reduce((first, second) -> second).orElseThrow();
    System.setProperty(property, path);
    return Path.of(path);
  }

  private static void awaitBackgroundBuild(Path outcome, String script) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + BACKGROUND_BUILD_TIMEOUT.toNanos();
    while (!Files.exists(outcome)) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(script + ", building in the background, did not end within "
            + BACKGROUND_BUILD_TIMEOUT + " (no " + outcome + ")");
      }
      Thread.sleep(500);
    }
    List<String> lines = Files.readAllLines(outcome, StandardCharsets.UTF_8);
    if (lines.isEmpty() || !lines.get(lines.size() - 1).equals("exit 0")) {
      throw new IllegalStateException(script + ", built in the background, failed; its output ("
          + outcome + "):\n" + String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size())));
    }
  }

  /** Starts {@code command} with {@code environment} added, and waits until the log shows one more ready line. */
  public void start(List<String> command, Map<String, String> environment) throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    builder.environment().putAll(environment);
    int readyBefore = countReady();
    process = builder.start();
    long deadline = System.nanoTime() + startTimeout.toNanos();
    while (countReady() == readyBefore) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        process.destroyForcibly();
        throw new IllegalStateException(name + " did not get ready (" + String.join(" ", command)
            + (process.isAlive() ? ", still starting after " + startTimeout : ", exited " + process.exitValue())
            + "); its log:\n" + logTail(30));
      }
      Thread.sleep(50);
    }
  }

  /** Everything it has logged so far (all its runs). */
  public String logText() {
    try {
      return Files.readString(log, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(cannot read " + log + ": " + e + ")";
    }
  }

  /** The last {@code lines} lines of the log, for failure messages. */
  public String logTail(int lines) {
    List<String> all = logText().lines().toList();
    return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
  }

  /** SIGKILL: the process ends at once. */
  public void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(10, TimeUnit.SECONDS);
  }

  /** SIGTERM, and waits for the process to end (SIGKILL after the stop timeout). */
  public void stop() {
    if (process == null || !process.isAlive()) {
      return;
    }
    process.destroy();
    try {
      if (!process.waitFor(stopTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  private int countReady() {
    String text = Files.exists(log) ? logText() : "";
    int count = 0;
    for (int at = text.indexOf(ready); at >= 0; at = text.indexOf(ready, at + 1)) {
      count++;
    }
    return count;
  }
}
