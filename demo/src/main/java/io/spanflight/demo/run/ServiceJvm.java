package io.spanflight.demo.run;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A service in its own JVM, started from a full command line, with its output in a log file. It
 * is ready once it prints {@code LISTENING <port>}. {@link #stop()} sends SIGTERM, so shutdown
 * hooks (the agent's, Spanflight's final export) run, and kills only after a timeout.
 *
 * <p>Used by {@link DemoRunner} ({@code bin/demo}), the overhead benchmarks, and the smoke tests'
 * {@code AppJvm}, which builds its command line and delegates the process to this class. It lives
 * here, in main code, because {@code bin/demo} runs it from {@code demo/target/classes} alone; the
 * smoke-tests module, built after this one, depends on it.
 */
public final class ServiceJvm implements AutoCloseable {
  public static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(90);
  public static final Duration STOP_TIMEOUT = Duration.ofSeconds(20);
  private static final int FAILURE_TAIL_LINES = 80;
  private static final Pattern LISTENING = Pattern.compile("^LISTENING (\\d+)\\s*$", Pattern.MULTILINE);

  private final Process process;
  private final Path logFile;
  private int port;
  private boolean forciblyStopped;

  private ServiceJvm(Process process, Path logFile) {
    this.process = process;
    this.logFile = logFile;
  }

  /** Starts {@code command}, logging to {@code logFile}, and waits until it listens. */
  public static ServiceJvm start(List<String> command, Path logFile) throws IOException {
    ServiceJvm jvm = launch(command, Map.of(), logFile);
    jvm.awaitListening();
    return jvm;
  }

  /**
   * Starts {@code command} with {@code environment} added to this JVM's, logging to {@code
   * logFile} (headed by the command line), and returns at once.
   */
  public static ServiceJvm launch(List<String> command, Map<String, String> environment, Path logFile)
      throws IOException {
    Files.createDirectories(logFile.toAbsolutePath().getParent());
    Files.writeString(logFile, "# " + String.join(" ", command) + "\n");
    ProcessBuilder builder = new ProcessBuilder(new ArrayList<>(command));
    builder.environment().putAll(environment);
    Process process = builder
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
        .start();
    return new ServiceJvm(process, logFile);
  }

  public int port() {
    return port;
  }

  public long pid() {
    return process.pid();
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  public Path logFile() {
    return logFile;
  }

  /** Everything the JVM printed so far (stdout and stderr; bytes that are not UTF-8 replaced). */
  public String logText() {
    try {
      return new String(Files.readAllBytes(logFile), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(cannot read " + logFile + ": " + e + ")";
    }
  }

  /** The last {@code lines} lines of the log, headed by its path. */
  public String logTail(int lines) {
    String[] all = logText().split("\\R");
    int from = Math.max(0, all.length - lines);
    return "--- last " + (all.length - from) + " lines of " + logFile + " ---\n"
        + String.join("\n", List.of(all).subList(from, all.length));
  }

  /** Whether {@link #stop()} had to kill the JVM. */
  public boolean forciblyStopped() {
    return forciblyStopped;
  }

  /** SIGTERM, up to 20 s to exit, then a kill; returns the exit code. Idempotent. */
  public int stop() {
    try {
      if (process.isAlive()) {
        process.destroy();
        if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
          forciblyStopped = true;
          process.destroyForcibly().waitFor();
        }
      }
      return process.waitFor();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
      throw new IllegalStateException("interrupted while stopping the service JVM", e);
    }
  }

  /** Waits up to {@code timeout} for the JVM to exit on its own; true when it did. */
  public boolean awaitExit(Duration timeout) throws InterruptedException {
    return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** The exit code of a JVM that has exited. */
  public int exitValue() {
    return process.exitValue();
  }

  @Override
  public void close() {
    stop();
  }

  /**
   * Waits until the JVM prints {@code LISTENING <port>}; if it exits first, or is still silent
   * after {@link #STARTUP_TIMEOUT} (then it is stopped), throws with the log's last lines.
   */
  public void awaitListening() throws IOException {
    long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
    try {
      while (System.nanoTime() - deadline < 0) {
        Matcher m = LISTENING.matcher(logText());
        if (m.find()) {
          port = Integer.parseInt(m.group(1));
          return;
        }
        if (process.waitFor(50, TimeUnit.MILLISECONDS)) { // poll; returns at once if it exits
          throw new IOException("the service JVM exited with " + process.exitValue()
              + " before listening\n" + logTail(FAILURE_TAIL_LINES));
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stop();
      throw new IOException("interrupted while waiting for the service JVM", e);
    }
    stop();
    throw new IOException("the service JVM did not print LISTENING within " + STARTUP_TIMEOUT
        + "\n" + logTail(FAILURE_TAIL_LINES));
  }

  /** A command line: a {@code java} launcher, JVM options, a class path and a main class. */
  public static final class Command {
    private final List<String> jvmArgs = new ArrayList<>();
    private final Path java;
    private final String classpath;
    private final String mainClass;

    public Command(Path java, String classpath, String mainClass) {
      this.java = java;
      this.classpath = classpath;
      this.mainClass = mainClass;
    }

    /** The {@code java} launcher of the JDK running this code. */
    public static Path currentJava() {
      return Path.of(System.getProperty("java.home"), "bin", "java");
    }

    public Command jvmArg(String arg) {
      jvmArgs.add(arg);
      return this;
    }

    public Command systemProperty(String key, String value) {
      jvmArgs.add("-D" + key + "=" + value);
      return this;
    }

    public List<String> toList() {
      List<String> command = new ArrayList<>();
      command.add(java.toString());
      command.addAll(jvmArgs);
      command.add("-cp");
      command.add(classpath);
      command.add(mainClass);
      return command;
    }
  }
}
