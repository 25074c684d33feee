package io.spanflight.smoke.collector;

import io.spanflight.smoke.harness.GoProgram;
import io.spanflight.smoke.harness.LoopbackPorts;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A real OpenTelemetry Collector process (the binary {@code bin/collector} builds from the
 * Collector's released Go modules), started with the configs of {@code examples/collector/} and
 * profiles switched on by the {@code service.profilesSupport} feature gate, listening on loopback
 * ports of its own. The binary is the system property {@code spanflight.collector.binary}
 * ({@code bin/test} sets it), else whatever {@code bin/collector} prints.
 */
public final class RealCollector implements AutoCloseable {
  private static final String READY = "Everything is ready";
  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

  private final Path repoRoot;
  private final List<Path> configs;
  private final Map<String, String> environment;
  private final int grpcPort;
  private final int httpPort;
  private final GoProgram program;

  private RealCollector(Path repoRoot, List<Path> configs, Map<String, String> environment, Path log) {
    this.repoRoot = repoRoot;
    this.configs = List.copyOf(configs);
    this.environment = new LinkedHashMap<>(environment);
    this.grpcPort = LoopbackPorts.free();
    this.httpPort = LoopbackPorts.free();
    this.program = new GoProgram("the Collector", log, READY, START_TIMEOUT, Duration.ofSeconds(15));
  }

  /**
   * Starts the Collector with {@code configs} (merged in order; a relative path is taken from the
   * repository root), the environment variables {@code environment} (the configs'
   * {@code ${env:...}}), its log in {@code log}, and waits until it is ready.
   */
  public static RealCollector start(Path repoRoot, List<Path> configs, Map<String, String> environment, Path log)
      throws IOException, InterruptedException {
    RealCollector collector = notStarted(repoRoot, configs, environment, log);
    collector.start();
    return collector;
  }

  /** As {@link #start}, with its ports chosen but the process not started yet: {@link #start()} does. */
  public static RealCollector notStarted(Path repoRoot, List<Path> configs, Map<String, String> environment,
      Path log) {
    return new RealCollector(repoRoot, configs, environment, log);
  }

  /** What {@code otelcol validate} said of some configs: its exit code and output. */
  public record Validation(int exitCode, String output) {}

  /**
   * Runs the Collector's {@code validate} command on {@code configs} (merged in order, relative to
   * the repository root), with the profiles feature gate when {@code profilesGate}.
   */
  public static Validation validate(Path repoRoot, List<Path> configs, boolean profilesGate)
      throws IOException, InterruptedException {
    List<String> command = command(repoRoot, List.of("validate"), configs, profilesGate);
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IllegalStateException("otelcol validate did not finish in 60 s: " + command);
    }
    return new Validation(process.exitValue(), output);
  }

  /** The value for {@code otel.exporter.otlp.endpoint} with protocol {@code grpc}. */
  public String grpcEndpoint() {
    return "http://" + grpcTarget();
  }

  /** {@code 127.0.0.1:port} of the gRPC receiver. */
  public String grpcTarget() {
    return "127.0.0.1:" + grpcPort;
  }

  /** The base URL of the HTTP receiver (paths {@code /v1/traces}, {@code /v1development/profiles}). */
  public String httpEndpoint() {
    return "http://127.0.0.1:" + httpPort;
  }

  /** Everything the Collector has logged so far (all its runs). */
  public String logText() {
    return program.logText();
  }

  /** The last {@code lines} lines of the log, for failure messages. */
  public String logTail(int lines) {
    return program.logTail(lines);
  }

  /** SIGKILL: the process ends at once, with whatever it had accepted but not yet forwarded. */
  public void kill() throws InterruptedException {
    program.kill();
  }

  /** Starts it again with {@code name} set to {@code value} in its environment. */
  public void startWith(String name, String value) throws IOException, InterruptedException {
    environment.put(name, value);
    start();
  }

  /** SIGTERM, and waits for the Collector to shut down (it flushes what it holds). */
  @Override
  public void close() {
    program.stop();
  }

  /**
   * Starts the Collector (again, after {@link #kill} or {@link #close}: same configs and ports) and
   * waits until it logs that it is ready.
   */
  public void start() throws IOException, InterruptedException {
    Map<String, String> env = new LinkedHashMap<>();
    env.put("OTLP_GRPC_LISTEN", grpcTarget());
    env.put("OTLP_HTTP_LISTEN", "127.0.0.1:" + httpPort);
    env.putAll(environment);
    program.start(command(repoRoot, List.of(), configs, true), env);
  }

  /** The binary, then {@code arguments}, the configs and (when {@code profilesGate}) the profiles feature gate. */
  private static List<String> command(Path repoRoot, List<String> arguments, List<Path> configs, boolean profilesGate)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(binary(repoRoot).toString()));
    command.addAll(arguments);
    configs.forEach(config -> command.add("--config=" + repoRoot.resolve(config)));
    if (profilesGate) {
      command.add("--feature-gates=service.profilesSupport");
    }
    return command;
  }

  /** The Collector binary: {@code -Dspanflight.collector.binary}, else built by {@code bin/collector}. */
  static Path binary(Path repoRoot) throws IOException, InterruptedException {
    return GoProgram.binary(repoRoot, "spanflight.collector.binary", "bin/collector");
  }
}
