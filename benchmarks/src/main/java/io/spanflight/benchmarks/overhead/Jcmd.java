package io.spanflight.benchmarks.overhead;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/** Runs one diagnostic command against a JVM with the harness's own JDK's {@code jcmd}. */
final class Jcmd {
  private static final long TIMEOUT_SECONDS = 30;

  private Jcmd() {}

  /**
   * What {@code parse} makes of {@code jcmd <pid> <command>}'s output, or {@code unknown} when jcmd
   * fails or {@code parse} throws (said on stderr, naming {@code what}).
   */
  static <T> T parsed(long pid, String command, Function<String, T> parse, T unknown, String what) {
    try {
      return parse.apply(run(pid, command));
    } catch (IOException | RuntimeException e) {
      System.err.println(what + " of pid " + pid + " unknown: " + e.getMessage());
      return unknown;
    }
  }

  /** What {@code jcmd <pid> <command>} printed; an IOException if it failed or timed out. */
  static String run(long pid, String command) throws IOException {
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    Process process = new ProcessBuilder(jcmd.toString(), Long.toString(pid), command).redirectErrorStream(true).start();
    try {
      byte[] out = process.getInputStream().readAllBytes();
      if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS) || process.exitValue() != 0) {
        process.destroyForcibly();
        throw new IOException("jcmd " + command + " failed");
      }
      return new String(out, StandardCharsets.UTF_8);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
      throw new IOException("interrupted while running jcmd", e);
    }
  }
}
