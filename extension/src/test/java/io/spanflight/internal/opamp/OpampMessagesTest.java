package io.spanflight.internal.opamp;

import static org.assertj.core.api.Assertions.assertThat;

import io.spanflight.internal.format.ProtoWriter;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Bytes as opamp-go v0.23.0 writes them (the vectors of the issue #49 plan, made with its own
 * marshaller), and the decoder's rules for what proto3 leaves open.
 */
class OpampMessagesTest {
  private static final HexFormat HEX = HexFormat.of();

  @Test
  void encodesAgentToServerAsOpampGoDoes() {
    AgentDescription description =
        new AgentDescription(List.of(new KeyValue("service.name", "demo")), List.of());
    AgentToServer message = new AgentToServer(new byte[16], 1, description, OpampMessages.CAPABILITIES,
        null, null, null, false, 0);

    assertThat(OpampMessages.CAPABILITIES).isEqualTo(6151);
    assertThat(HEX.formatHex(OpampMessages.encode(message))).isEqualTo("0a10" + "0".repeat(32) + "1001"
        + "1a180a160a0c736572766963652e6e616d6512060a0464656d6f" + "208730");
  }

  @Test
  void leavesOutWhatIsNullAndSendsDisconnectAsAnEmptyMessage() {
    byte[] uid = new byte[16];
    uid[15] = 1;
    AgentToServer last = new AgentToServer(uid, 0, null, OpampMessages.CAPABILITIES, null, null, null, true, 0);

    assertThat(HEX.formatHex(OpampMessages.encode(last)))
        .isEqualTo("0a10" + "0".repeat(30) + "01" + "208730" + "4a00");
  }

  @Test
  void decodesAReplyShapedAsOpampGoSendsIt() throws Exception {
    byte[] body = "otel.spanflight.cpu.period=10ms\n".repeat(3).substring(0, 79).getBytes(StandardCharsets.UTF_8);
    byte[] hash = new byte[32];
    Arrays.fill(hash, (byte) 0xab);
    String reply = "0a10" + "11".repeat(16)
        + "1a9d01" + "0a79" + "0a77" + "0a0a" + HEX.formatHex("spanflight".getBytes(StandardCharsets.UTF_8))
        + "1269" + "0a4f" + HEX.formatHex(body) + "1216"
        + HEX.formatHex("text/x-java-properties".getBytes(StandardCharsets.UTF_8))
        + "1220" + HEX.formatHex(hash)
        + "3807" + "5200";

    ServerToAgent decoded = OpampMessages.decode(HEX.parseHex(reply));

    assertThat(decoded.instanceUid()).containsOnly(0x11).hasSize(16);
    assertThat(decoded.capabilities()).isEqualTo(7);
    assertThat(decoded.error()).isNull();
    assertThat(decoded.newInstanceUid()).isNull();
    assertThat(decoded.remoteConfig().configHash()).isEqualTo(hash);
    assertThat(decoded.remoteConfig().config()).containsOnlyKeys("spanflight");
    ConfigFile file = decoded.remoteConfig().config().get("spanflight");
    assertThat(file.body()).isEqualTo(body);
    assertThat(file.contentType()).isEqualTo("text/x-java-properties");
  }

  @Test
  void aFieldThatComesTwiceKeepsItsLastValueAndAFileNameItsLastFile() throws Exception {
    ProtoWriter w = new ProtoWriter().varintField(6, 0).varintField(6, 1).varintField(7, 3).varintField(7, 7);
    w.begin(3).begin(1);
    for (String content : List.of("first", "other", "last")) {
      String name = content.equals("other") ? "other" : "spanflight";
      w.begin(1).repeatedString(1, name).begin(2).stringField(1, content).end().end();
    }
    w.end().end();

    ServerToAgent decoded = OpampMessages.decode(w.toByteArray());

    assertThat(decoded.flags()).isEqualTo(ServerToAgent.FLAG_REPORT_FULL_STATE);
    assertThat(decoded.capabilities()).isEqualTo(7);
    Map<String, ConfigFile> files = decoded.remoteConfig().config();
    assertThat(files).containsOnlyKeys("spanflight", "other");
    assertThat(new String(files.get("spanflight").body(), StandardCharsets.UTF_8)).isEqualTo("last");
  }

  @Test
  void anEmptyReplyAndAnEmptyAgentIdentificationSetNothing() throws Exception {
    ServerToAgent empty = OpampMessages.decode(new byte[0]);
    assertThat(empty.instanceUid()).isEmpty();
    assertThat(empty.error()).isNull();
    assertThat(empty.remoteConfig()).isNull();
    assertThat(empty.newInstanceUid()).isNull();

    assertThat(OpampMessages.decode(new byte[] {0x42, 0x00}).newInstanceUid()).isNull();
  }
}
