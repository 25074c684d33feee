package io.spanflight.smoke.collector;

import io.spanflight.smoke.harness.GoProgram;
import io.spanflight.smoke.harness.LoopbackPorts;
import io.spanflight.smoke.traces.JaegerQuery;
import io.spanflight.smoke.traces.StoredTrace;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * A real Jaeger (v2, the binary {@code bin/jaeger} builds from Jaeger's released Go module) in its
 * all-in-one shape: OTLP in over gRPC and HTTP, spans kept in memory, the query API over HTTP, all
 * on loopback ports of its own. Jaeger v2 is an OpenTelemetry Collector distribution whose built-in
 * all-in-one config listens on fixed ports (4317, 4318, 16686 and more), so this writes its own
 * config file with free ports and only the components named above. The binary is the system
 * property {@code spanflight.jaeger.binary} ({@code bin/test} sets it, and may still be building it:
 * see {@link GoProgram#binary}), else whatever {@code bin/jaeger} prints.
 */
public final class RealJaeger implements AutoCloseable {
  /** What Jaeger's Collector core logs once its receivers, extensions and pipelines run. */
  private static final String READY = "Everything is ready";
  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

  private final int otlpGrpcPort = LoopbackPorts.free();
  private final int otlpHttpPort = LoopbackPorts.free();
  private final int queryHttpPort = LoopbackPorts.free();
  private final int queryGrpcPort = LoopbackPorts.free();
  private final GoProgram program;
  private final JaegerQuery query;

  private RealJaeger(Path log) {
    this.program = new GoProgram("Jaeger", log, READY, START_TIMEOUT, Duration.ofSeconds(15));
    this.query = new JaegerQuery(URI.create(queryEndpoint()), () -> "Jaeger's log:\n" + program.logTail(20));
  }

  /**
   * Starts Jaeger with its config and log ({@code jaeger.yaml}, {@code jaeger.log}) in
   * {@code directory}, and waits until it is ready.
   */
  public static RealJaeger start(Path repoRoot, Path directory) throws IOException, InterruptedException {
    Path binary = binary(repoRoot);
    RealJaeger jaeger = new RealJaeger(directory.resolve("jaeger.log"));
    Path config = directory.resolve("jaeger.yaml");
    Files.writeString(config, jaeger.config(), StandardCharsets.UTF_8);
    jaeger.program.start(List.of(binary.toString(), "--config=" + config), Map.of());
    return jaeger;
  }

  /** The value for {@code otel.exporter.otlp.endpoint} with protocol {@code grpc}. */
  public String otlpGrpcEndpoint() {
    return "http://" + otlpGrpcTarget();
  }

  /** {@code 127.0.0.1:port} of the OTLP gRPC receiver (a Collector's {@code otlp_grpc} exporter endpoint). */
  public String otlpGrpcTarget() {
    return "127.0.0.1:" + otlpGrpcPort;
  }

  /** The base URL of the OTLP HTTP receiver: {@code otel.exporter.otlp.endpoint} with {@code http/protobuf}. */
  public String otlpHttpEndpoint() {
    return "http://127.0.0.1:" + otlpHttpPort;
  }

  /** The base URL of the query API ({@code /api/v3/...}). */
  public String queryEndpoint() {
    return "http://127.0.0.1:" + queryHttpPort;
  }

  /** The trace as Jaeger holds it now, or empty (404). */
  public Optional<StoredTrace> trace(String traceId) throws IOException, InterruptedException {
    return query.trace(traceId);
  }

  /** See {@link JaegerQuery#awaitTrace}: polls until the trace is there and {@code complete} accepts it. */
  public StoredTrace awaitTrace(String traceId, Predicate<StoredTrace> complete, String what, Duration timeout)
      throws IOException, InterruptedException {
    return query.awaitTrace(traceId, complete, what, timeout);
  }

  /** Everything Jaeger has logged so far. */
  public String logText() {
    return program.logText();
  }

  /** The last {@code lines} lines of the log, for failure messages. */
  public String logTail(int lines) {
    return program.logTail(lines);
  }

  /** SIGTERM, and waits for Jaeger to stop. */
  @Override
  public void close() {
    program.stop();
  }

  /** The binary: {@code -Dspanflight.jaeger.binary}, else built by {@code bin/jaeger}. */
  public static Path binary(Path repoRoot) throws IOException, InterruptedException {
    return GoProgram.binary(repoRoot, "spanflight.jaeger.binary", "bin/jaeger");
  }

  /**
   * The all-in-one pipeline (OTLP receiver -> in-memory storage -> query extension) on this
   * instance's ports; no batch processor (spans are stored as they come), no metrics endpoint, and
   * no clock-skew adjustment (0s, also Jaeger's default), so span times come back exactly as sent.
   */
  private String config() {
    return """
        service:
          extensions: [jaeger_storage, jaeger_query]
          pipelines:
            traces:
              receivers: [otlp]
              exporters: [jaeger_storage_exporter]
          telemetry:
            metrics:
              level: none
            logs:
              level: info
        extensions:
          jaeger_storage:
            backends:
              memstore:
                memory:
                  max_traces: 10000
          jaeger_query:
            storage:
              traces: memstore
            max_clock_skew_adjust: 0s
            http:
              endpoint: 127.0.0.1:%d
            grpc:
              endpoint: 127.0.0.1:%d
        receivers:
          otlp:
            protocols:
              grpc:
                endpoint: 127.0.0.1:%d
              http:
                endpoint: 127.0.0.1:%d
        exporters:
          jaeger_storage_exporter:
            trace_storage: memstore
        """.formatted(queryHttpPort, queryGrpcPort, otlpGrpcPort, otlpHttpPort);
  }
}
