package io.spanflight.smoke.browser;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Debian's {@code chromium} in headless mode with the DevTools protocol on a free loopback port
 * (read from the {@code DevToolsActivePort} file of a fresh profile directory), and a {@link
 * DevToolsClient} connected to its page. Its output goes to a log file.
 */
public final class HeadlessChromium implements AutoCloseable {
  static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(60);
  private static final List<String> NAMES = List.of("chromium", "chromium-browser");

  private final Process process;
  private final Path profileDir;
  private final Path log;
  private final DevToolsClient page;

  private HeadlessChromium(Process process, Path profileDir, Path log, DevToolsClient page) {
    this.process = process;
    this.profileDir = profileDir;
    this.log = log;
    this.page = page;
  }

  /** The chromium executable on the PATH, if there is one. */
  public static Optional<Path> find() {
    String path = System.getenv().getOrDefault("PATH", "");
    for (String name : NAMES) {
      for (String dir : path.split(File.pathSeparator)) {
        Path candidate = Paths.get(dir, name);
        if (!dir.isEmpty() && Files.isExecutable(candidate)) {
          return Optional.of(candidate);
        }
      }
    }
    return Optional.empty();
  }

  /** Starts {@code executable} with a window of {@code width} x {@code height}, logging under {@code workDir}. */
  public static HeadlessChromium start(Path executable, Path workDir, int width, int height) {
    try {
      Files.createDirectories(workDir);
      Path profile = Files.createTempDirectory(workDir, "chromium-profile-");
      Path log = workDir.resolve("chromium-" + System.currentTimeMillis() + ".log");
      List<String> command = new ArrayList<>(List.of(executable.toString(), "--headless=new",
          "--remote-debugging-port=0", "--user-data-dir=" + profile, "--window-size=" + width + "," + height,
          "--disable-gpu", "--no-first-run", "--no-default-browser-check", "--disable-extensions",
          "--disable-background-networking", "--disable-sync", "--mute-audio"));
      if ("root".equals(System.getProperty("user.name"))) {
        command.add("--no-sandbox"); // chromium refuses to run as root with its sandbox
      }
      command.add("about:blank");
      Process process = new ProcessBuilder(command).redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
      try {
        int port = awaitPort(process, profile.resolve("DevToolsActivePort"), log);
        URI pageSocket = pageWebSocket(process, port);
        return new HeadlessChromium(process, profile, log, DevToolsClient.connect(pageSocket));
      } catch (RuntimeException e) {
        process.destroyForcibly();
        throw e;
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + executable, e);
    }
  }

  public DevToolsClient page() {
    return page;
  }

  public Path log() {
    return log;
  }

  private static int awaitPort(Process process, Path portFile, Path log) {
    long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
    try {
      while (System.nanoTime() - deadline < 0) {
        if (Files.isRegularFile(portFile)) {
          List<String> lines = Files.readAllLines(portFile, StandardCharsets.UTF_8);
          if (!lines.isEmpty() && !lines.get(0).isBlank()) {
            return Integer.parseInt(lines.get(0).trim());
          }
        }
        if (process.waitFor(50, TimeUnit.MILLISECONDS)) { // poll interval; returns early on exit
          throw new IllegalStateException("chromium exited with " + process.exitValue() + ": " + tail(log));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted starting chromium", e);
    }
    throw new IllegalStateException("chromium did not open its DevTools port within " + STARTUP_TIMEOUT + ": " + tail(log));
  }

  @SuppressWarnings("unchecked")
  private static URI pageWebSocket(Process process, int port) {
    HttpClient http = HttpClient.newHttpClient();
    long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
    String last = "";
    try {
      while (System.nanoTime() - deadline < 0) {
        try {
          HttpResponse<String> response = http.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/json/list")).timeout(Duration.ofSeconds(10)).build(),
            HttpResponse.BodyHandlers.ofString());
          last = response.body();
          for (Object target : (List<Object>) Json.parse(last)) {
            Map<String, Object> t = (Map<String, Object>) target;
            if ("page".equals(t.get("type")) && t.get("webSocketDebuggerUrl") != null) {
              return URI.create((String) t.get("webSocketDebuggerUrl"));
            }
          }
        } catch (IOException e) {
          last = e.toString();
        }
        if (process.waitFor(50, TimeUnit.MILLISECONDS)) { // poll interval; returns early on exit
          throw new IllegalStateException("chromium exited with " + process.exitValue());
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
    throw new IllegalStateException("chromium listed no page target: " + last);
  }

  private static String tail(Path log) {
    try {
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }

  @Override
  public void close() {
    try {
      page.close();
    } finally {
      process.destroy();
      try {
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
          process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        process.destroyForcibly();
      }
      deleteQuietly(profileDir);
    }
  }

  private static void deleteQuietly(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException | UncheckedIOException e) {
      // a leftover profile under target/ is harmless
    }
  }
}
