package io.spanflight.smoke.harness;

import io.spanflight.smoke.app.BurnApp;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@link BurnApp} running in its own JVM with the OpenTelemetry javaagent and (unless switched
 * off) the Spanflight extension jar. Output goes to a log file under the build directory.
 *
 * <p>{@link #close()} stops it like an orchestrator would: SIGTERM, so that shutdown hooks flush
 * the last export interval, and only after 20 s a forced kill.
 */
public final class AppJvm implements AutoCloseable {
  static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(90);
  static final Duration STOP_TIMEOUT = Duration.ofSeconds(20);
  private static final Pattern LISTENING = Pattern.compile("^LISTENING (\\d+)\\s*$", Pattern.MULTILINE);

  private final Process process;
  private final Path logFile;
  private int port;
  private boolean forciblyStopped;

  private AppJvm(Process process, Path logFile) {
    this.process = process;
    this.logFile = logFile;
  }

  /** Starts describing an app JVM on {@code jdk}, with the jars found in {@code paths}. */
  public static Builder builder(Jdk jdk, SmokePaths paths) {
    return new Builder(jdk, paths);
  }

  /** The port the app listens on, on 127.0.0.1. */
  public int port() {
    return port;
  }

  public URI baseUri() {
    return URI.create("http://127.0.0.1:" + port);
  }

  public Path logFile() {
    return logFile;
  }

  /** Everything the JVM printed so far (stdout and stderr), for diagnostics. */
  public String logText() {
    try {
      return new String(Files.readAllBytes(logFile), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(cannot read " + logFile + ": " + e + ")";
    }
  }

  /**
   * Polls the log until {@code text} appears (lines the agent writes from its background threads);
   * false if it has not within {@code timeout}.
   */
  public boolean awaitLog(String text, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!logText().contains(text)) {
      if (System.nanoTime() - deadline >= 0) {
        return false;
      }
      TimeUnit.MILLISECONDS.sleep(50); // polling a log file, not waiting for an outcome
    }
    return true;
  }

  /** The last {@code lines} lines of {@link #logText()}, headed by the log file's path. */
  public String logTail(int lines) {
    String[] all = logText().split("\\R");
    int from = Math.max(0, all.length - lines);
    return "--- last " + (all.length - from) + " lines of " + logFile + " ---\n"
        + String.join("\n", List.of(all).subList(from, all.length));
  }

  /** Whether the JVM had to be killed because it did not stop within 20 s of SIGTERM. */
  public boolean forciblyStopped() {
    return forciblyStopped;
  }

  /** Sends SIGTERM, waits up to 20 s, then kills; returns the exit code. Idempotent. */
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
      throw new IllegalStateException("interrupted while stopping the app JVM", e);
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

  private void awaitListening() throws InterruptedException {
    long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
    while (System.nanoTime() - deadline < 0) {
      Matcher m = LISTENING.matcher(logText());
      if (m.find()) {
        port = Integer.parseInt(m.group(1));
        return;
      }
      if (process.waitFor(50, TimeUnit.MILLISECONDS)) { // poll interval; returns early on exit
        throw new IllegalStateException("app JVM exited with " + process.exitValue()
            + " before listening\n" + logTail(80));
      }
    }
    stop();
    throw new IllegalStateException("app JVM did not print LISTENING within " + STARTUP_TIMEOUT
        + "\n" + logTail(80));
  }

  /** What to launch. */
  public static final class Builder {
    private final Jdk jdk;
    private final SmokePaths paths;
    private final Map<String, String> properties = new LinkedHashMap<>();
    private final List<String> jvmArgs = new ArrayList<>();
    private final Map<String, String> environment = new LinkedHashMap<>();
    private String serviceName = "burn-app";
    private boolean extension = true;
    private String mainClass = BurnApp.class.getName();
    private final List<Path> extraClasspath = new ArrayList<>();

    private Builder(Jdk jdk, SmokePaths paths) {
      this.jdk = jdk;
      this.paths = paths;
    }

    public Builder serviceName(String serviceName) {
      this.serviceName = serviceName;
      return this;
    }

    /** Adds {@code -Dkey=value} to the app JVM's command line. */
    public Builder systemProperty(String key, String value) {
      properties.put(key, value);
      return this;
    }

    /** Sets an environment variable of the app JVM (on top of this JVM's environment). */
    public Builder environment(String name, String value) {
      environment.put(name, value);
      return this;
    }

    /** Adds a JVM option such as {@code -Xcheck:jni} to the app JVM's command line. */
    public Builder jvmArg(String option) {
      jvmArgs.add(option);
      return this;
    }

    /** Runs another app class of this module (default {@link BurnApp}); it must print LISTENING. */
    public Builder mainClass(Class<?> app) {
      return mainClass(app.getName());
    }

    /**
     * Runs {@code mainClass} (from the app classes) instead of {@link BurnApp}; it must print
     * {@code LISTENING <port>} like BurnApp does.
     */
    public Builder mainClass(String mainClass) {
      this.mainClass = mainClass;
      return this;
    }

    /** Appends jars (such as {@link SmokePaths#appDependencies()}) to the app's class path. */
    public Builder classpath(List<Path> entries) {
      extraClasspath.addAll(entries);
      return this;
    }

    /** Runs the app with the javaagent alone, as a baseline or to check the harness. */
    public Builder withoutExtension() {
      extension = false;
      return this;
    }

    /** Launches the JVM and waits until the app listens. */
    public AppJvm start() {
      AppJvm app = launch();
      try {
        app.awaitListening();
        return app;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        app.stop();
        throw new IllegalStateException("interrupted while starting the app JVM", e);
      }
    }

    /** Launches the JVM and returns at once, for an app that runs to its end on its own. */
    public AppJvm launch() {
      paths.requireAgentJar();
      if (extension) {
        paths.requireExtensionJar();
      }
      List<String> command = new ArrayList<>();
      command.add(jdk.java().toString());
      command.add("-Xmx256m");
      command.addAll(jvmArgs);
      command.add("-javaagent:" + paths.agentJar());
      if (extension) {
        command.add("-Dotel.javaagent.extensions=" + paths.extensionJar());
      }
      command.add("-Dotel.service.name=" + serviceName);
      properties.forEach((key, value) -> command.add("-D" + key + "=" + value));
      List<String> classpath = new ArrayList<>(List.of(paths.appClasspath().toString()));
      extraClasspath.forEach(entry -> classpath.add(entry.toString()));
      command.addAll(List.of("-cp", String.join(java.io.File.pathSeparator, classpath), mainClass));
      try {
        Path logDir = Files.createDirectories(paths.buildDir().resolve("smoke-logs"));
        Path log = logDir.resolve(serviceName + "-" + jdk.label() + "-" + System.currentTimeMillis() + ".log");
        Files.writeString(log, "# " + String.join(" ", command) + "\n");
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().putAll(environment);
        Process process = builder
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .start();
        return new AppJvm(process, log);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot start " + command, e);
      }
    }
  }
}
