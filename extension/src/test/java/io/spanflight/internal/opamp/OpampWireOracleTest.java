package io.spanflight.internal.opamp;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import okio.ByteString;
import opamp.proto.AgentConfigFile;
import opamp.proto.AgentConfigMap;
import opamp.proto.AgentIdentification;
import opamp.proto.CommandType;
import opamp.proto.ConnectionSettingsOffers;
import opamp.proto.CustomCapabilities;
import opamp.proto.CustomMessage;
import opamp.proto.OpAMPConnectionSettings;
import opamp.proto.PackageAvailable;
import opamp.proto.PackageType;
import opamp.proto.PackagesAvailable;
import opamp.proto.RemoteConfigStatuses;
import opamp.proto.RetryInfo;
import opamp.proto.ServerErrorResponseType;
import opamp.proto.ServerToAgentCommand;
import org.junit.jupiter.api.Test;

/**
 * Our messages against an implementation that is not ours: the Wire classes generated from the
 * OpAMP protos for the OpenTelemetry Java contrib OpAMP client (test scope only). Compared field by
 * field, not byte by byte, as the two may order map entries differently.
 */
class OpampWireOracleTest {

  @Test
  void wireReadsEveryFieldWeWrite() throws Exception {
    byte[] uid = bytes(16, 1);
    ComponentHealth export = new ComponentHealth(false, 0, "HTTP 503", "delivered=10 dropped=2", 77, Map.of());
    ComponentHealth profiling = new ComponentHealth(true, 1_700_000_000_000_000_000L, "", "running",
        1_700_000_000_500_000_000L, Map.of("cpu", new ComponentHealth(true, 5, "", "ok", 6, Map.of())));
    Map<String, ComponentHealth> components = new LinkedHashMap<>();
    components.put("profiling", profiling);
    components.put("export", export);
    ComponentHealth health = new ComponentHealth(true, 1_700_000_000_000_000_000L, "", "running",
        -1L, components); // fixed64 carries all 64 bits
    Map<String, ConfigFile> effective = new LinkedHashMap<>();
    effective.put("spanflight", new ConfigFile(utf8("otel.spanflight.cpu.period=10ms\n"), "text/x-java-properties"));
    effective.put("empty", new ConfigFile(new byte[0], ""));
    AgentToServer ours = new AgentToServer(uid, 42,
        new AgentDescription(
            List.of(new KeyValue("service.name", "checkout"), new KeyValue("service.instance.id", "i-1")),
            List.of(new KeyValue("spanflight.version", "0.1.0"), new KeyValue("host.name", ""))),
        OpampMessages.CAPABILITIES, health, effective,
        new RemoteConfigStatus(bytes(32, 9), RemoteConfigStatus.FAILED, "unknown key otel.spanflight.cpu.perod"),
        true, 1);

    opamp.proto.AgentToServer wire = opamp.proto.AgentToServer.ADAPTER.decode(OpampMessages.encode(ours));

    assertThat(wire.unknownFields().size()).isZero();
    assertThat(wire.instance_uid.toByteArray()).isEqualTo(uid);
    assertThat(wire.sequence_num).isEqualTo(42);
    assertThat(texts(wire.agent_description.identifying_attributes))
        .containsExactly("service.name=checkout", "service.instance.id=i-1");
    assertThat(texts(wire.agent_description.non_identifying_attributes))
        .containsExactly("spanflight.version=0.1.0", "host.name=");
    assertThat(wire.capabilities).isEqualTo(0x1807);
    assertThat(ours(wire.health)).isEqualTo(health);
    Map<String, AgentConfigFile> files = wire.effective_config.config_map.config_map;
    assertThat(files).containsOnlyKeys("spanflight", "empty");
    assertThat(files.get("spanflight").body.utf8()).isEqualTo("otel.spanflight.cpu.period=10ms\n");
    assertThat(files.get("spanflight").content_type).isEqualTo("text/x-java-properties");
    assertThat(files.get("empty").body.size()).isZero();
    assertThat(wire.remote_config_status.last_remote_config_hash.toByteArray()).isEqualTo(bytes(32, 9));
    assertThat(wire.remote_config_status.status).isEqualTo(RemoteConfigStatuses.RemoteConfigStatuses_FAILED);
    assertThat(wire.remote_config_status.error_message).isEqualTo("unknown key otel.spanflight.cpu.perod");
    assertThat(wire.agent_disconnect).isNotNull();
    assertThat(wire.flags).isEqualTo(1);
  }

  @Test
  void wireSeesNoPartWeLeftOutAndAnEmptyConfigAsEmpty() throws Exception {
    AgentToServer ours = new AgentToServer(bytes(16, 3), 7, null, OpampMessages.CAPABILITIES, null, Map.of(),
        null, false, 0);

    opamp.proto.AgentToServer wire = opamp.proto.AgentToServer.ADAPTER.decode(OpampMessages.encode(ours));

    assertThat(wire.agent_description).isNull();
    assertThat(wire.health).isNull();
    assertThat(wire.remote_config_status).isNull();
    assertThat(wire.agent_disconnect).isNull();
    assertThat(wire.effective_config.config_map.config_map).isEmpty();
  }

  @Test
  void weReadWhatWireWritesAndSkipTheRest() throws Exception {
    byte[] uid = bytes(16, 1);
    byte[] newUid = bytes(16, 2);
    byte[] hash = bytes(32, 3);
    Map<String, AgentConfigFile> files = new LinkedHashMap<>();
    files.put("spanflight", new AgentConfigFile.Builder().body(ByteString.encodeUtf8("otel.spanflight.enabled=false\n"))
        .content_type("text/x-java-properties").build());
    files.put("notes", new AgentConfigFile.Builder().body(ByteString.encodeUtf8("x")).content_type("").build());
    opamp.proto.ServerToAgent wire = new opamp.proto.ServerToAgent.Builder()
        .instance_uid(ByteString.of(uid))
        .error_response(new opamp.proto.ServerErrorResponse.Builder()
            .type(ServerErrorResponseType.ServerErrorResponseType_Unavailable).error_message("try later")
            .retry_info(new RetryInfo.Builder().retry_after_nanoseconds(30_000_000_000L).build()).build())
        .remote_config(new opamp.proto.AgentRemoteConfig.Builder()
            .config(new AgentConfigMap.Builder().config_map(files).build()).config_hash(ByteString.of(hash)).build())
        .connection_settings(new ConnectionSettingsOffers.Builder().hash(ByteString.of(hash))
            .opamp(new OpAMPConnectionSettings.Builder().destination_endpoint("http://elsewhere:4320/v1/opamp")
                .heartbeat_interval_seconds(30).build()).build())
        .packages_available(new PackagesAvailable.Builder().all_packages_hash(ByteString.of(hash))
            .packages(Map.of("agent", new PackageAvailable.Builder().type(PackageType.PackageType_Addon)
                .version("9.9").hash(ByteString.of(hash)).build())).build())
        .flags(ServerToAgent.FLAG_REPORT_FULL_STATE)
        .capabilities(7)
        .agent_identification(new AgentIdentification.Builder().new_instance_uid(ByteString.of(newUid)).build())
        .command(new ServerToAgentCommand.Builder().type(CommandType.CommandType_Restart).build())
        .custom_capabilities(new CustomCapabilities.Builder().capabilities(List.of("io.example.cap")).build())
        .custom_message(new CustomMessage.Builder().capability("io.example.cap").type("ping")
            .data(ByteString.encodeUtf8("data")).build())
        .build();

    ServerToAgent ours = OpampMessages.decode(opamp.proto.ServerToAgent.ADAPTER.encode(wire));

    assertThat(ours.instanceUid()).isEqualTo(uid);
    assertThat(ours.error()).isEqualTo(new ServerErrorResponse(ServerErrorResponse.UNAVAILABLE, "try later",
        30_000_000_000L));
    assertThat(ours.remoteConfig().configHash()).isEqualTo(hash);
    assertThat(ours.remoteConfig().config()).containsOnlyKeys("spanflight", "notes");
    ConfigFile spanflight = ours.remoteConfig().config().get("spanflight");
    assertThat(new String(spanflight.body(), StandardCharsets.UTF_8)).isEqualTo("otel.spanflight.enabled=false\n");
    assertThat(spanflight.contentType()).isEqualTo("text/x-java-properties");
    assertThat(ours.remoteConfig().config().get("notes").body()).isEqualTo(utf8("x"));
    assertThat(ours.flags()).isEqualTo(ServerToAgent.FLAG_REPORT_FULL_STATE);
    assertThat(ours.capabilities()).isEqualTo(7);
    assertThat(ours.newInstanceUid()).isEqualTo(newUid);
  }

  @Test
  void whatWireLeavesOutIsNullOrEmpty() throws Exception {
    opamp.proto.ServerToAgent wire = new opamp.proto.ServerToAgent.Builder()
        .instance_uid(ByteString.of(bytes(16, 1)))
        .error_response(new opamp.proto.ServerErrorResponse.Builder()
            .type(ServerErrorResponseType.ServerErrorResponseType_BadRequest).build())
        .remote_config(new opamp.proto.AgentRemoteConfig.Builder()
            .config(new AgentConfigMap.Builder().build()).build())
        .build();

    ServerToAgent ours = OpampMessages.decode(opamp.proto.ServerToAgent.ADAPTER.encode(wire));

    assertThat(ours.error()).isEqualTo(new ServerErrorResponse(ServerErrorResponse.BAD_REQUEST, "", 0));
    assertThat(ours.remoteConfig().config()).isEmpty();
    assertThat(ours.remoteConfig().configHash()).isEmpty();
    assertThat(ours.newInstanceUid()).isNull();
    assertThat(ours.flags()).isZero();
  }

  private static ComponentHealth ours(opamp.proto.ComponentHealth wire) {
    assertThat(wire.unknownFields().size()).isZero();
    Map<String, ComponentHealth> components = new LinkedHashMap<>();
    wire.component_health_map.forEach((name, child) -> components.put(name, ours(child)));
    return new ComponentHealth(wire.healthy, wire.start_time_unix_nano, wire.last_error, wire.status,
        wire.status_time_unix_nano, components);
  }

  private static List<String> texts(List<opamp.proto.KeyValue> attributes) {
    return attributes.stream().map(kv -> kv.key + "=" + kv.value.string_value).toList();
  }

  private static byte[] bytes(int length, int value) {
    byte[] bytes = new byte[length];
    Arrays.fill(bytes, (byte) value);
    return bytes;
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
