package io.spanflight.smoke;

import static org.assertj.core.api.Assertions.assertThat;

import io.spanflight.smoke.opamp.RealOpampServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The OpAMP test server ({@link RealOpampServer}) without an agent: hand-made AgentToServer bytes
 * (the golden vector opamp-go's own marshaller wrote: uid 16 zero bytes, description
 * service.name="demo", capabilities 6151) POSTed to it, its log line and its reply checked, with a
 * remote config, after a gap in sequence numbers, and under its faults.
 */
class OpampServerSmokeTest extends SmokeTestBase {
  static final Path REPO = CollectorRoundTripSmokeTest.REPO;
  static final HttpClient HTTP = HttpClient.newHttpClient();
  static final String PROTOBUF = "application/x-protobuf";

  @TempDir
  Path temp;

  @Test
  @Timeout(value = 1, unit = TimeUnit.MINUTES)
  void goldenAgentToServer_isLoggedAndAnswered() throws Exception {
    try (RealOpampServer server = RealOpampServer.start(REPO, temp.resolve("opamp.log"))) {
      HttpResponse<byte[]> reply = post(server, goldenAgentToServer(1), PROTOBUF);

      assertThat(reply.statusCode()).isEqualTo(200);
      Map<String, Object> message = server.awaitMessage(
          m -> "demo".equals(RealOpampServer.at(firstIdentifyingAttribute(m), "value", "string_value")),
          Duration.ofSeconds(5));
      assertThat(RealOpampServer.at(firstIdentifyingAttribute(message), "key")).isEqualTo("service.name");
      assertThat(RealOpampServer.at(message, "agentToServer", "sequence_num")).isEqualTo("1");
      assertThat(RealOpampServer.at(message, "agentToServer", "capabilities")).isEqualTo("6151");
      assertThat(message.get("uid")).isEqualTo("0".repeat(32));
      assertThat(message.get("reply")).isEqualTo(Map.of("flags", 0L, "remoteConfigHash", ""));
      // instance_uid (field 1: 16 zero bytes) comes back; capabilities (field 7) = 7
      assertThat(HexFormat.of().formatHex(reply.body())).startsWith("0a10" + "0".repeat(32)).contains("3807");
    }
  }

  @Test
  @Timeout(value = 1, unit = TimeUnit.MINUTES)
  void remoteConfig_isSentToAnAgentThatAcceptsIt() throws Exception {
    try (RealOpampServer server = RealOpampServer.start(REPO, temp.resolve("opamp.log"))) {
      post(server, goldenAgentToServer(1), PROTOBUF);
      String body = "otel.spanflight.enabled=false\n";
      String hash = server.putConfig(body, "text/x-java-properties");

      HttpResponse<byte[]> reply = post(server, goldenAgentToServer(2), PROTOBUF);

      assertThat(reply.statusCode()).isEqualTo(200);
      String replyText = new String(reply.body(), StandardCharsets.ISO_8859_1);
      assertThat(replyText).contains("spanflight", body, "text/x-java-properties");
      byte[] sha256 = MessageDigest.getInstance("SHA-256").digest(body.getBytes(StandardCharsets.UTF_8));
      assertThat(hash).isEqualTo(HexFormat.of().formatHex(sha256));
      assertThat(HexFormat.of().formatHex(reply.body())).contains(hash);
      Map<String, Object> logged = server.awaitMessage(
          m -> "2".equals(RealOpampServer.at(m, "agentToServer", "sequence_num")), Duration.ofSeconds(5));
      assertThat(logged.get("reply")).isEqualTo(Map.of("flags", 0L, "remoteConfigHash", hash));
    }
  }

  @Test
  @Timeout(value = 1, unit = TimeUnit.MINUTES)
  void sequenceGap_asksForTheFullState() throws Exception {
    try (RealOpampServer server = RealOpampServer.start(REPO, temp.resolve("opamp.log"))) {
      post(server, goldenAgentToServer(1), PROTOBUF);
      post(server, goldenAgentToServer(3), PROTOBUF);

      Map<String, Object> logged = server.awaitMessage(
          m -> "3".equals(RealOpampServer.at(m, "agentToServer", "sequence_num")), Duration.ofSeconds(5));
      assertThat(RealOpampServer.at(logged, "reply", "flags")).isEqualTo(1L);
      assertThat(RealOpampServer.at(server.agents(), "0".repeat(32), "lastSequenceNum")).isEqualTo(3L);
    }
  }

  @Test
  @Timeout(value = 1, unit = TimeUnit.MINUTES)
  void wrongContentType_isRefused() throws Exception {
    try (RealOpampServer server = RealOpampServer.start(REPO, temp.resolve("opamp.log"))) {
      // opamp-go takes any other content type for a WebSocket upgrade, which fails
      assertThat(post(server, goldenAgentToServer(1), "application/json").statusCode()).isEqualTo(400);
      assertThat(server.messages()).isEmpty();
    }
  }

  @Test
  @Timeout(value = 1, unit = TimeUnit.MINUTES)
  void faults_answerInsteadOfTheServer() throws Exception {
    try (RealOpampServer server = RealOpampServer.start(REPO, temp.resolve("opamp.log"))) {
      server.fault("garbage");
      HttpResponse<byte[]> garbage = post(server, goldenAgentToServer(1), PROTOBUF);
      assertThat(garbage.statusCode()).isEqualTo(200);
      assertThat(garbage.headers().firstValue("Content-Type")).hasValue(PROTOBUF);
      assertThat(garbage.body()).isNotEmpty().startsWith((byte) 0xff);

      server.fault("http503");
      HttpResponse<byte[]> unavailable = post(server, goldenAgentToServer(2), PROTOBUF);
      assertThat(unavailable.statusCode()).isEqualTo(503);
      assertThat(unavailable.headers().firstValue("Retry-After")).hasValue("1");

      server.fault("reject401");
      assertThat(post(server, goldenAgentToServer(3), PROTOBUF).statusCode()).isEqualTo(401);

      assertThat(server.messages()).as("faulted requests never reach opamp-go").isEmpty();
      server.fault("none");
      assertThat(post(server, goldenAgentToServer(4), PROTOBUF).statusCode()).isEqualTo(200);
      assertThat(server.awaitMessage(m -> true, Duration.ofSeconds(5))).isNotNull();
    }
  }

  /** AgentToServer{uid 16 zero bytes, sequence_num, agent_description{service.name="demo"}, capabilities 6151}. */
  private static byte[] goldenAgentToServer(int sequenceNum) {
    return HexFormat.of().parseHex("0a10" + "0".repeat(32) + "10" + String.format("%02x", sequenceNum)
        + "1a180a160a0c736572766963652e6e616d6512060a0464656d6f" + "208730");
  }

  private static HttpResponse<byte[]> post(RealOpampServer server, byte[] body, String contentType)
      throws Exception {
    HttpRequest request = HttpRequest.newBuilder(URI.create(server.endpoint()))
        .header("Content-Type", contentType).timeout(Duration.ofSeconds(10))
        .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
    return HTTP.send(request, HttpResponse.BodyHandlers.ofByteArray());
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> firstIdentifyingAttribute(Map<String, Object> message) {
    Object attributes = RealOpampServer.at(message, "agentToServer", "agent_description", "identifying_attributes");
    return attributes instanceof List<?> list && !list.isEmpty()
        ? (Map<String, Object>) list.get(0) : Map.of();
  }
}
