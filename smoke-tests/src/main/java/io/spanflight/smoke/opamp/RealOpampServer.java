package io.spanflight.smoke.opamp;

import io.spanflight.smoke.browser.Json;
import io.spanflight.smoke.harness.GoProgram;
import io.spanflight.smoke.harness.LoopbackPorts;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A real OpAMP server process (the binary {@code bin/opamp-server} builds from our
 * {@code opamp-server/main.go} on opamp-go's server package), listening on loopback ports of its
 * own: OpAMP over plain HTTP at {@link #endpoint()}, and an admin HTTP API that sets the remote
 * config it offers and the faults it answers with. The binary is the system property
 * {@code spanflight.opamp.server.binary} ({@code bin/test} sets it), else whatever
 * {@code bin/opamp-server} prints.
 *
 * <p>The server logs one JSON object per line for every AgentToServer it decodes; {@link
 * #messages()} returns them as maps:
 *
 * <pre>{@code
 * {"agentToServer": {"instance_uid": "AAAA...", "sequence_num": "1", "capabilities": "6151",
 *                    "agent_description": {...}, "health": {...}, "effective_config": {...},
 *                    "remote_config_status": {...}},
 *  "uid": "<instance_uid in hex>",
 *  "reply": {"flags": 1, "remoteConfigHash": "<sha256 hex of the config sent, or empty>"}}
 * }</pre>
 *
 * {@code agentToServer} is protojson with the proto field names: uint64 fields ({@code
 * sequence_num}, {@code capabilities}, {@code *_unix_nano}) are JSON strings, bytes ({@code
 * instance_uid}, config bodies, {@code last_remote_config_hash}) are base64, enums are their names
 * ({@code "RemoteConfigStatuses_APPLIED"}), and fields at their default value are absent. The
 * reply's {@code flags} is a JSON number ({@code 1} = ReportFullState). {@link #at} reads a path.
 */
public final class RealOpampServer implements AutoCloseable {
  private static final String READY = "opamp-server ready ";
  private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
  private static final HttpClient ADMIN = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private final Path repoRoot;
  private final List<String> arguments;
  private final int opampPort = LoopbackPorts.free();
  private final int adminPort = LoopbackPorts.free();
  private final GoProgram program;

  private RealOpampServer(Path repoRoot, Path log, List<String> arguments) {
    this.repoRoot = repoRoot;
    this.arguments = List.copyOf(arguments);
    this.program = new GoProgram("the OpAMP server", log, READY, START_TIMEOUT, Duration.ofSeconds(10));
  }

  /**
   * Starts the server with its output (the JSON lines and its errors) in {@code log} and waits
   * until it is ready. {@code arguments} go to the binary: {@code -token T}, {@code -tls-cert F
   * -tls-key K}.
   */
  public static RealOpampServer start(Path repoRoot, Path log, String... arguments)
      throws IOException, InterruptedException {
    RealOpampServer server = new RealOpampServer(repoRoot, log, List.of(arguments));
    server.start();
    return server;
  }

  /** The OpAMP endpoint, {@code http://127.0.0.1:port/v1/opamp} ({@code https} with {@code -tls-cert}). */
  public String endpoint() {
    return (arguments.contains("-tls-cert") ? "https" : "http") + "://127.0.0.1:" + opampPort + "/v1/opamp";
  }

  /** Offers {@code body} as the remote config entry {@code spanflight}; returns its hash (sha256, hex). */
  public String putConfig(String body, String contentType) throws IOException, InterruptedException {
    return putConfig("spanflight", body, contentType);
  }

  /** Offers {@code body} as the only remote config entry, {@code name}; returns its hash (sha256, hex). */
  public String putConfig(String name, String body, String contentType) throws IOException, InterruptedException {
    HttpRequest.Builder request = HttpRequest.newBuilder(admin("/config?name=" + URLEncoder.encode(name,
        StandardCharsets.UTF_8))).PUT(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
    if (!contentType.isEmpty()) {
      request.header("Content-Type", contentType);
    }
    return send(request).strip();
  }

  /** Offers an empty config map ("back to local"); returns its hash, sha256 of nothing. */
  public String clearConfig() throws IOException, InterruptedException {
    return send(HttpRequest.newBuilder(admin("/config")).DELETE()).strip();
  }

  /** The next reply to every agent carries the flag ReportFullState. */
  public void reportFullState() throws IOException, InterruptedException {
    send(HttpRequest.newBuilder(admin("/report-full-state")).POST(HttpRequest.BodyPublishers.noBody()));
  }

  /**
   * From now on OpAMP requests get {@code mode}: {@code none} (normal replies), {@code garbage}
   * (200 with bytes that are no ServerToAgent), {@code http503} (with Retry-After: 1) or
   * {@code reject401}.
   */
  public void fault(String mode) throws IOException, InterruptedException {
    send(HttpRequest.newBuilder(admin("/fault?mode=" + URLEncoder.encode(mode, StandardCharsets.UTF_8)))
        .POST(HttpRequest.BodyPublishers.noBody()));
  }

  /** The server's per-agent state ({@code GET /agents}): instance uid in hex -> what it last reported. */
  @SuppressWarnings("unchecked")
  public Map<String, Object> agents() throws IOException, InterruptedException {
    return (Map<String, Object>) Json.parse(send(HttpRequest.newBuilder(admin("/agents")).GET()));
  }

  /** Every AgentToServer logged so far (all runs), oldest first, as described in the class javadoc. */
  @SuppressWarnings("unchecked")
  public List<Map<String, Object>> messages() {
    List<Map<String, Object>> messages = new ArrayList<>();
    logText().lines().filter(line -> line.startsWith("{\"agentToServer\""))
        .forEach(line -> messages.add((Map<String, Object>) Json.parse(line)));
    return messages;
  }

  /** The first message (oldest first) that {@code matches}, waiting up to {@code timeout}; fails with the log's tail. */
  public Map<String, Object> awaitMessage(Predicate<Map<String, Object>> matches, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      for (Map<String, Object> message : messages()) {
        if (matches.test(message)) {
          return message;
        }
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("no matching OpAMP message in " + timeout + "; the server's log ends:\n"
            + logTail(10));
      }
      Thread.sleep(50);
    }
  }

  /** The value at {@code keys} in nested maps ({@code at(message, "agentToServer", "sequence_num")}), or null. */
  public static Object at(Map<String, Object> map, String... keys) {
    Object value = map;
    for (String key : keys) {
      if (!(value instanceof Map<?, ?> object)) {
        return null;
      }
      value = object.get(key);
    }
    return value;
  }

  /** Everything the server has logged so far (all its runs). */
  public String logText() {
    return program.logText();
  }

  /** The last {@code lines} lines of the log, for failure messages. */
  public String logTail(int lines) {
    return program.logTail(lines);
  }

  /** SIGKILL: the server is gone at once, with all it knew of the agents and its config. */
  public void kill() throws InterruptedException {
    program.kill();
  }

  /** SIGTERM, and waits for the server to stop. */
  @Override
  public void close() {
    program.stop();
  }

  /**
   * Starts the server (again, after {@link #kill} or {@link #close}: same ports and arguments, but
   * no config and no agents) and waits until it prints its ready line.
   */
  public void start() throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(
        GoProgram.binary(repoRoot, "spanflight.opamp.server.binary", "bin/opamp-server").toString(),
        "-listen", "127.0.0.1:" + opampPort, "-admin", "127.0.0.1:" + adminPort));
    command.addAll(arguments);
    program.start(command, Map.of());
  }

  private URI admin(String pathAndQuery) {
    return URI.create("http://127.0.0.1:" + adminPort + pathAndQuery);
  }

  /** Sends an admin request; returns the response body, throws on anything but 2xx. */
  private static String send(HttpRequest.Builder request) throws IOException, InterruptedException {
    HttpRequest built = request.timeout(Duration.ofSeconds(10)).build();
    HttpResponse<String> response = ADMIN.send(built, HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() / 100 != 2) {
      throw new IllegalStateException("OpAMP server admin " + built.method() + " " + built.uri() + ": HTTP "
          + response.statusCode() + " " + response.body().strip());
    }
    return response.body();
  }
}
