package io.spanflight.benchmarks.overhead;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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

  /**
   * What {@code jcmd <pid> <command>} printed; an IOException if it failed or did not finish within
   * {@value #TIMEOUT_SECONDS} s (its output is read on another thread, so a jcmd that hangs with its
   * output open is stopped too).
   */
  static String run(long pid, String command) throws IOException {
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    Process process = new ProcessBuilder(jcmd.toString(), Long.toString(pid), command).redirectErrorStream(true).start();
    CompletableFuture<byte[]> out = CompletableFuture.supplyAsync(() -> {
      try {
        return process.getInputStream().readAllBytes();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
    try {
      if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS) || process.exitValue() != 0) {
        throw new IOException("jcmd " + command + " failed or timed out");
      }
      return new String(out.get(TIMEOUT_SECONDS, TimeUnit.SECONDS), StandardCharsets.UTF_8);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while running jcmd", e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IOException("jcmd " + command + "'s output unread: " + e.getMessage(), e);
    } finally {
      process.destroyForcibly(); // a no-op once it has exited
    }
  }
}
