package io.spanflight.smoke.harness;

import io.spanflight.demo.run.ServiceJvm;
import io.spanflight.smoke.app.BurnApp;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@link BurnApp} running in its own JVM with the OpenTelemetry javaagent and (unless switched
 * off) the Spanflight extension jar. Output goes to a log file under the build directory.
 *
 * <p>{@link #close()} stops it like an orchestrator would: SIGTERM, so that shutdown hooks flush
 * the last export interval, and only after 20 s a forced kill. The process itself (launch, log,
 * {@code LISTENING} wait, stop) is the demo's {@link ServiceJvm}, which {@code bin/demo} runs the
 * demo service with; this class adds the smoke tests' command line and log polling.
 */
public final class AppJvm implements AutoCloseable {
  private final ServiceJvm jvm;

  private AppJvm(ServiceJvm jvm) {
    this.jvm = jvm;
  }

  /** Starts describing an app JVM on {@code jdk}, with the jars found in {@code paths}. */
  public static Builder builder(Jdk jdk, SmokePaths paths) {
    return new Builder(jdk, paths);
  }

  /** The port the app listens on, on 127.0.0.1. */
  public int port() {
    return jvm.port();
  }

  /** The app JVM's process id (for readers from outside: gdb, /proc). */
  public long pid() {
    return jvm.pid();
  }

  public URI baseUri() {
    return URI.create("http://127.0.0.1:" + port());
  }

  public Path logFile() {
    return jvm.logFile();
  }

  /** Everything the JVM printed so far (stdout and stderr), for diagnostics. */
  public String logText() {
    return jvm.logText();
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
    return jvm.logTail(lines);
  }

  /** Whether the JVM had to be killed because it did not stop within 20 s of SIGTERM. */
  public boolean forciblyStopped() {
    return jvm.forciblyStopped();
  }

  /** Sends SIGTERM, waits up to 20 s, then kills; returns the exit code. Idempotent. */
  public int stop() {
    return jvm.stop();
  }

  /** Waits up to {@code timeout} for the JVM to exit on its own; true when it did. */
  public boolean awaitExit(Duration timeout) throws InterruptedException {
    return jvm.awaitExit(timeout);
  }

  /** The exit code of a JVM that has exited. */
  public int exitValue() {
    return jvm.exitValue();
  }

  @Override
  public void close() {
    stop();
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
    private Path agentJar;

    private Builder(Jdk jdk, SmokePaths paths) {
      this.jdk = jdk;
      this.paths = paths;
      this.agentJar = paths.agentJar();
    }

    /** Runs the app with another release of the javaagent than {@link SmokePaths#agentJar()}. */
    public Builder agentJar(Path agentJar) {
      this.agentJar = agentJar;
      return this;
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
        app.jvm.awaitListening();
        return app;
      } catch (IOException e) { // it exited, stayed silent (then stopped), or we were interrupted
        throw new IllegalStateException(e.getMessage(), e);
      }
    }

    /** Launches the JVM and returns at once, for an app that runs to its end on its own. */
    public AppJvm launch() {
      if (!Files.isRegularFile(agentJar)) {
        throw new IllegalStateException("OpenTelemetry javaagent not found at " + agentJar
            + "; the smoke-tests build copies it there (mvn -B -pl smoke-tests generate-resources)");
      }
      if (extension) {
        paths.requireExtensionJar();
      }
      List<String> command = new ArrayList<>();
      command.add(jdk.java().toString());
      command.add("-Xmx256m");
      command.addAll(jvmArgs);
      command.add("-javaagent:" + agentJar);
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
        return new AppJvm(ServiceJvm.launch(command, environment, log));
      } catch (IOException e) {
        throw new UncheckedIOException("cannot start " + command, e);
      }
    }
  }
}
