package io.spanflight.internal.opamp;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.sdk.autoconfigure.spi.internal.DefaultConfigProperties;
import io.spanflight.internal.LogLines;
import io.spanflight.internal.config.SettingsLayers;
import io.spanflight.internal.config.SpanflightConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import okio.ByteString;
import opamp.proto.AgentConfigFile;
import opamp.proto.AgentConfigMap;
import opamp.proto.AgentIdentification;
import opamp.proto.RemoteConfigStatuses;
import org.junit.jupiter.api.Test;

/**
 * The client's protocol against a scripted server (replies made by the Wire classes of the contrib
 * client, requests read back with them): status compression, a full report when the server asks
 * or after a failure, a remote configuration applied once by its hash or refused whole with every
 * message, the time box, a new instance id, and a server that fails or answers garbage changing
 * nothing. The real server (opamp-go) is in the smoke tests.
 */
class OpampClientTest {
  private static final Instant START = Instant.parse("2026-12-06T22:00:00Z");
  private final MutableClock clock = new MutableClock();
  private final ScriptedServer server = new ScriptedServer();
  private final FakeAgent agent = new FakeAgent(Map.of(
      "otel.spanflight.exporter", "none", "otel.spanflight.opamp.endpoint", "http://127.0.0.1:1/v1/opamp"));
  private final OpampClient client = new OpampClient(agent.config.opamp(), agent, server, clock);

  @Test
  void theFirstMessageSaysEverythingTheNextOnlyWhatChanged() throws Exception {
    client.exchangeOnce();
    client.exchangeOnce();
    agent.status = "off";
    client.exchangeOnce();

    opamp.proto.AgentToServer first = server.sent.get(0);
    assertThat(first.sequence_num).isEqualTo(1);
    assertThat(first.capabilities).isEqualTo(0x1807);
    assertThat(first.instance_uid.size()).isEqualTo(16);
    assertThat(first.instance_uid.getByte(6) & 0xf0).as("UUID version 7").isEqualTo(0x70);
    assertThat(first.agent_description.identifying_attributes.get(0).key).isEqualTo("service.name");
    assertThat(first.health.status).isEqualTo("running");
    assertThat(first.effective_config.config_map.config_map.get("spanflight").body.utf8()).contains("# Spanflight");

    opamp.proto.AgentToServer second = server.sent.get(1);
    assertThat(second.sequence_num).isEqualTo(2);
    assertThat(second.agent_description).isNull();
    assertThat(second.health).isNull();
    assertThat(second.effective_config).isNull();
    assertThat(second.capabilities).as("in every message").isEqualTo(0x1807);

    opamp.proto.AgentToServer third = server.sent.get(2);
    assertThat(third.health.status).isEqualTo("off");
    assertThat(third.agent_description).isNull();
  }

  @Test
  void theServerAsksForEverythingAgain() throws Exception {
    server.next(new opamp.proto.ServerToAgent.Builder().flags(1L).build());
    client.exchangeOnce();
    client.exchangeOnce();
    assertThat(server.sent.get(1).agent_description).as("ReportFullState").isNotNull();
    assertThat(server.sent.get(1).health).isNotNull();
  }

  @Test
  void aRemoteConfigurationIsAppliedOnceByItsHash() throws Exception {
    server.next(remoteConfig("otel.spanflight.cpu.period=50ms\notel.spanflight.export.interval=20s\n"));
    client.exchangeOnce();
    assertThat(agent.applied).hasSize(1);
    assertThat(agent.applied.get(0).config().exportInterval()).isEqualTo(Duration.ofSeconds(20));
    server.next(remoteConfig("otel.spanflight.cpu.period=50ms\notel.spanflight.export.interval=20s\n"));
    client.exchangeOnce();
    assertThat(agent.applied).as("the same hash again").hasSize(1);

    opamp.proto.AgentToServer report = server.sent.get(1);
    assertThat(report.remote_config_status.status).isEqualTo(RemoteConfigStatuses.RemoteConfigStatuses_APPLIED);
    assertThat(report.remote_config_status.last_remote_config_hash.toByteArray())
        .isEqualTo(sha256("otel.spanflight.cpu.period=50ms\notel.spanflight.export.interval=20s\n"));
    assertThat(report.effective_config.config_map.config_map.get("spanflight").body.utf8())
        .contains("otel.spanflight.export.interval=20s   # remote");
  }

  @Test
  void aHostileConfigurationIsRefusedWholeWithEveryMessage() throws Exception {
    String hostile = "otel.spanflight.cpu.period=0ms\notel.spanflight.exporter=file\notel.spanflight.cpu.perod=1\n"
        + "otel.spanflight.methodtrace.filter=java.lang.String::hashCode\n"
        + "otel.spanflight.context.filter=" + "(".repeat(3000) + "\n";
    server.next(remoteConfig(hostile));
    client.exchangeOnce();
    client.exchangeOnce();
    assertThat(agent.applied).as("nothing applied").isEmpty();
    opamp.proto.RemoteConfigStatus status = server.sent.get(1).remote_config_status;
    assertThat(status.status).isEqualTo(RemoteConfigStatuses.RemoteConfigStatuses_FAILED);
    assertThat(status.error_message)
        .contains("otel.spanflight.exporter is read at start only")
        .contains("did you mean otel.spanflight.cpu.period?")
        .as("the values of the lines that parsed are checked too")
        .contains("invalid value '0ms' for otel.spanflight.cpu.period")
        .contains("no class under java.")
        .contains("at most 1024 characters long")
        .doesNotContain("\n");
    assertThat(agent.layers().origins()).isEmpty();
  }

  @Test
  void aSecondEntryOrAWrongContentTypeIsRefused() throws Exception {
    server.next(new opamp.proto.ServerToAgent.Builder().remote_config(new opamp.proto.AgentRemoteConfig.Builder()
        .config(new AgentConfigMap.Builder().config_map(Map.of(
            "spanflight", file("otel.spanflight.enabled=false", "text/plain"),
            "collector.yaml", file("receivers: {}", "text/yaml"))).build())
        .config_hash(ByteString.of(sha256("two"))).build()).build());
    client.exchangeOnce();
    client.exchangeOnce();
    assertThat(server.sent.get(1).remote_config_status.error_message).contains("'collector.yaml' is not Spanflight's");
    assertThat(agent.applied).isEmpty();
  }

  @Test
  void theTimeBoxEndsTheRemoteSettingsWithOrWithoutTheServer() throws Exception {
    server.next(remoteConfig("otel.spanflight.export.interval=20s\ntime.box=30s\n"));
    client.exchangeOnce();
    assertThat(agent.layers().remoteUntil()).isEqualTo(START.plusSeconds(30));
    server.fail = true;
    clock.now = START.plusSeconds(31);
    client.exchangeOnce();
    assertThat(agent.applied).hasSize(2);
    assertThat(agent.applied.get(1).config().exportInterval()).isEqualTo(SpanflightConfig.DEFAULT_EXPORT_INTERVAL);
    assertThat(agent.layers().origins()).isEmpty();
  }

  @Test
  void aServerThatFailsOrAnswersGarbageChangesNothingAndIsAskedLessOften() throws Exception {
    client.exchangeOnce();
    server.fail = true;
    client.exchangeOnce();
    Instant firstRetry = client.backoffUntil();
    assertThat(firstRetry).isEqualTo(START.plusSeconds(30));
    clock.now = firstRetry;
    server.fail = false;
    server.garbage = true;
    client.exchangeOnce();
    assertThat(client.backoffUntil()).as("doubled").isEqualTo(firstRetry.plusSeconds(60));
    clock.now = client.backoffUntil();
    server.garbage = false;
    client.exchangeOnce();
    assertThat(server.sent.get(server.sent.size() - 1).agent_description).as("all again after a failure").isNotNull();
    assertThat(agent.applied).isEmpty();
  }

  @Test
  void eachOutageIsReportedAtItsStartThenAtMostOnceAMinute() throws Exception {
    try (LogLines log = LogLines.listen("io.spanflight")) {
      client.exchangeOnce();
      server.garbage = true;
      client.exchangeOnce();
      clock.now = client.backoffUntil();
      client.exchangeOnce(); // within the minute: suppressed
      clock.now = client.backoffUntil();
      server.garbage = false;
      client.exchangeOnce();
      server.fail = true; // a new outage, seconds after the last one
      client.exchangeOnce();
      assertThat(log.atLeast(Level.WARNING)).extracting(LogRecord::getMessage).satisfiesExactly(
          garbage -> assertThat(garbage).contains("the server's answer is not an OpAMP message"),
          unreachable -> assertThat(unreachable).contains("the server could not be reached"));
    }
  }

  @Test
  void theServerCanRenameTheInstance() throws Exception {
    byte[] renamed = new byte[16];
    renamed[15] = 7;
    server.next(new opamp.proto.ServerToAgent.Builder()
        .agent_identification(new AgentIdentification.Builder().new_instance_uid(ByteString.of(renamed)).build()).build());
    client.exchangeOnce();
    client.exchangeOnce();
    assertThat(server.sent.get(1).instance_uid.toByteArray()).isEqualTo(renamed);
    assertThat(client.uidText()).isEqualTo("00000000-0000-0000-0000-000000000007");
  }

  @Test
  void theLastMessageSaysGoodbye() {
    assertThat(client.nextMessage(true).disconnect()).isTrue();
  }

  private static opamp.proto.ServerToAgent remoteConfig(String body) throws Exception {
    return new opamp.proto.ServerToAgent.Builder().remote_config(new opamp.proto.AgentRemoteConfig.Builder()
        .config(new AgentConfigMap.Builder().config_map(Map.of("spanflight", file(body, "text/plain"))).build())
        .config_hash(ByteString.of(sha256(body))).build()).build();
  }

  private static AgentConfigFile file(String body, String type) {
    return new AgentConfigFile.Builder().body(ByteString.encodeUtf8(body)).content_type(type).build();
  }

  private static byte[] sha256(String text) throws Exception {
    return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
  }

  /** Answers each post with the next scripted reply (an empty one when none is left). */
  private static final class ScriptedServer implements OpampClient.Transport {
    final List<opamp.proto.AgentToServer> sent = new ArrayList<>();
    final Deque<opamp.proto.ServerToAgent> replies = new ArrayDeque<>();
    boolean fail;
    boolean garbage;

    void next(opamp.proto.ServerToAgent reply) {
      replies.add(reply);
    }

    @Override
    public byte[] post(byte[] body, String instanceUidText) throws IOException {
      if (fail) {
        throw new IOException("Connection refused");
      }
      sent.add(opamp.proto.AgentToServer.ADAPTER.decode(body));
      if (garbage) {
        return new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff};
      }
      opamp.proto.ServerToAgent reply = replies.isEmpty() ? new opamp.proto.ServerToAgent.Builder().build() : replies.poll();
      return opamp.proto.ServerToAgent.ADAPTER.encode(reply);
    }

    @Override
    public void close() {}
  }

  /** The profiler's side: real layers over the given local settings; applying records the proposal. */
  private static final class FakeAgent implements OpampClient.Agent {
    final SpanflightConfig config;
    final SettingsLayers layers;
    final List<SettingsLayers.Proposal> applied = new ArrayList<>();
    String status = "running";

    FakeAgent(Map<String, String> local) {
      DefaultConfigProperties properties = DefaultConfigProperties.createFromMap(local);
      this.config = SpanflightConfig.read(properties);
      this.layers = new SettingsLayers(properties, config.opamp().limits());
    }

    @Override
    public SettingsLayers layers() {
      return layers;
    }

    @Override
    public List<String> apply(SettingsLayers.Proposal proposal, String by) {
      if (!proposal.valid()) {
        return proposal.errors();
      }
      layers.commit(proposal);
      applied.add(proposal);
      return List.of();
    }

    @Override
    public AgentDescription description() {
      return new AgentDescription(List.of(new KeyValue("service.name", "checkout")), List.of());
    }

    @Override
    public ComponentHealth health() {
      return new ComponentHealth(status.equals("running"), 0, "", status, 0, Map.of());
    }

    @Override
    public String effectiveConfig() {
      StringBuilder text = new StringBuilder("# Spanflight test\n");
      layers.origins().forEach(line -> text.append(line.replace(" (", "   # ").replace(")", "")).append('\n'));
      return text.toString();
    }
  }

  private final class MutableClock extends Clock {
    Instant now = START;

    @Override
    public ZoneOffset getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }
}
