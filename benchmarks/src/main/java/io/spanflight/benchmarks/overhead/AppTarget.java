package io.spanflight.benchmarks.overhead;

import io.spanflight.demo.load.Route;
import io.spanflight.demo.run.ServiceJvm;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Any HTTP application packaged as an executable jar (for example Spring PetClinic, built from its
 * public repository; the harness only takes the jar's path). It is told its port with {@code
 * portArgument} ({@code --server.port=%d} for Spring Boot) and is ready once the first path answers
 * 200.
 */
final class AppTarget implements Target {
  private static final Duration STARTUP_TIMEOUT = Duration.ofMinutes(5);

  private final Path jar;
  private final List<String> heap;
  private final String portArgument;
  private final List<Route> routes;

  AppTarget(Path jar, List<String> heap, String portArgument, List<Route> routes) {
    if (!Files.isRegularFile(jar)) {
      throw new IllegalArgumentException("--app: no such jar: " + jar);
    }
    this.jar = jar;
    this.heap = heap;
    this.portArgument = portArgument;
    this.routes = routes;
  }

  @Override
  public String describe() {
    return jar.getFileName() + " (" + String.join(" ", heap) + "), paths " + routes.stream().map(Route::path).toList();
  }

  @Override
  public List<Route> routes() {
    return routes;
  }

  @Override
  public Running start(Arm arm, Path log, Placement placement) throws IOException {
    int port = freePort();
    List<String> args = new ArrayList<>(heap);
    args.addAll(arm.jvmArgs());
    args.addAll(List.of("-jar", jar.toString(), String.format(portArgument, port)));
    List<String> command = placement.command(ServiceJvm.Command.currentJava().toString(), args);
    Files.createDirectories(log.toAbsolutePath().getParent());
    Files.writeString(log, "# " + String.join(" ", command) + "\n");
    Process process = new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
        .start();
    Running running = new Running() {
      @Override
      public long pid() {
        return process.pid();
      }

      @Override
      public int port() {
        return port;
      }

      @Override
      public void close() {
        stop(process);
      }
    };
    try {
      awaitReady(process, port, log);
      return running;
    } catch (IOException | RuntimeException e) {
      running.close();
      throw e;
    }
  }

  private void awaitReady(Process process, int port, Path log) throws IOException {
    URI uri = URI.create("http://127.0.0.1:" + port + routes.get(0).path());
    long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IOException("the application exited while starting (exit " + process.exitValue() + "); see " + log);
      }
      try {
        HttpURLConnection connection = (HttpURLConnection) uri.toURL().openConnection();
        connection.setConnectTimeout(1000);
        connection.setReadTimeout(30_000);
        if (connection.getResponseCode() == 200) {
          return;
        }
      } catch (IOException e) {
        // not listening yet
      }
      sleep(500);
    }
    throw new IOException("the application did not answer " + uri + " within " + STARTUP_TIMEOUT + "; see " + log);
  }

  private static void stop(Process process) {
    try {
      process.destroy();
      if (!process.waitFor(ServiceJvm.STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly().waitFor();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the application", e);
    }
  }
}
