package io.spanflight.smoke.outside;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Every thread's OTEP-4947 record of a running process, read by gdb (Debian {@code gdb}): it
 * attaches ({@code ptrace}; root, or the same user where Yama's {@code ptrace_scope} is 0), runs
 * thread_records.py in batch mode and detaches. Attaching stops the process for as long as gdb
 * reads it (about 4 s for a JVM with 35 threads).
 */
public final class GdbThreadRecords {
  /** What gdb printed: one record per thread, the threads it could not read, and its whole output. */
  public record Reading(List<ThreadRecord> threads, List<String> errors, int threadCount, String output) {}

  /** The kernel refused gdb's ptrace attach: a machine's setting, not a wrong record. */
  public static final class AttachRefused extends IOException {
    AttachRefused(String message) {
      super(message);
    }
  }

  private GdbThreadRecords() {}

  /** gdb on the PATH, or null. */
  public static Path gdbOnPath() {
    return Stream.of(System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator))
        .map(dir -> Path.of(dir, "gdb"))
        .filter(Files::isExecutable)
        .findFirst()
        .orElse(null);
  }

  /** Attaches {@code gdb} to {@code pid}, reads every thread's record, detaches. */
  public static Reading read(Path gdb, long pid, Path dir) throws IOException, InterruptedException {
    Path script = dir.resolve("thread_records.py");
    try (InputStream in = GdbThreadRecords.class.getResourceAsStream("/outside/thread_records.py")) {
      Files.write(script, in.readAllBytes());
    }
    Path out = dir.resolve("gdb.out");
    Process process = new ProcessBuilder(gdb.toString(), "-p", Long.toString(pid), "-batch", "-nx",
        "-ex", "set debuginfod enabled off", "-x", script.toString(), "-ex", "detach")
        .redirectErrorStream(true)
        .redirectOutput(out.toFile())
        .start();
    if (!process.waitFor(120, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IOException("gdb did not finish within 120 s: " + Files.readString(out));
    }
    String output = Files.readString(out, StandardCharsets.UTF_8);
    List<ThreadRecord> threads = new ArrayList<>();
    List<String> errors = new ArrayList<>();
    int count = -1;
    for (String line : output.split("\n")) {
      if (line.startsWith("SFREC ")) {
        threads.add(ThreadRecord.parse(line));
      } else if (line.startsWith("SFERR ")) {
        errors.add(line);
      } else if (line.startsWith("SFEND ")) {
        count = Integer.parseInt(line.substring(6).trim());
      }
    }
    if (count < 0 && output.contains("ptrace: Operation not permitted")) {
      throw new AttachRefused("gdb may not attach to " + pid + " (ptrace refused: not root, and Yama's"
          + " kernel.yama.ptrace_scope is not 0?):\n" + output);
    }
    if (process.exitValue() != 0 || count < 0) {
      throw new IOException("gdb exited with " + process.exitValue() + " before the end of its script:\n" + output);
    }
    return new Reading(threads, errors, count, output);
  }
}
