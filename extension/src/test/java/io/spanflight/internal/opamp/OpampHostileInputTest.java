package io.spanflight.internal.opamp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.spanflight.internal.format.MalformedProtoException;
import io.spanflight.internal.format.ProtoWriter;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A reply from a hostile or broken server: {@link OpampMessages#decode} either reads it or throws
 * {@link MalformedProtoException}; any other exception (an index out of bounds, an
 * OutOfMemoryError from a length prefix it believed) fails the test. Seeded, so a failure repeats.
 */
class OpampHostileInputTest {
  private static final HexFormat HEX = HexFormat.of();

  @Test
  void randomBytesAndMutatedRepliesAreReadOrRefused() {
    Random random = new Random(49);
    byte[] valid = validReply();
    for (int i = 0; i < 3000; i++) {
      byte[] noise = new byte[random.nextInt(200)];
      random.nextBytes(noise);
      decodesOrRefuses(noise);

      byte[] mutated = valid.clone();
      for (int flips = 1 + random.nextInt(4); flips > 0; flips--) {
        mutated[random.nextInt(mutated.length)] = (byte) random.nextInt(256);
      }
      decodesOrRefuses(mutated);
    }
  }

  @Test
  void everyTruncationOfAValidReplyIsReadOrRefused() throws Exception {
    byte[] valid = validReply();
    assertThat(OpampMessages.decode(valid).newInstanceUid()).hasSize(16);
    for (int length = 0; length < valid.length; length++) {
      decodesOrRefuses(Arrays.copyOf(valid, length));
    }
  }

  @Test
  void lengthsAndVarintsThatLieAreRefused() {
    refused("0affffffff07", "length 2147483647 runs past the end of its message");
    refused("1a05" + "0a03" + "0aff7f", "runs past the end of its message"); // a config map entry
    refused("30" + "80".repeat(10) + "01", "varint longer than 10 bytes"); // flags
    refused("30" + "80".repeat(4), "truncated varint");
    refused("32" + "00", "field 6 has wire type 2, expected 0"); // flags as bytes
    refused("2b", "unsupported wire type 3"); // a group, in a field that is skipped
  }

  @Test
  void nestingBombsAreSkippedOrRefusedWithoutRecursion() throws Exception {
    for (int field : new int[] {4, 11, 99}) { // skipped fields of ServerToAgent, known and not
      ProtoWriter w = new ProtoWriter();
      for (int depth = 0; depth < 2000; depth++) {
        w.begin(field);
      }
      for (int depth = 0; depth < 2000; depth++) {
        w.end();
      }
      assertThat(OpampMessages.decode(w.toByteArray()).remoteConfig()).isNull();
    }
    ProtoWriter inRemoteConfig = new ProtoWriter().begin(3).begin(1).begin(1);
    for (int depth = 0; depth < 2000; depth++) {
      inRemoteConfig.begin(5);
    }
    for (int depth = 0; depth < 2003; depth++) {
      inRemoteConfig.end();
    }
    assertThat(OpampMessages.decode(inRemoteConfig.toByteArray()).remoteConfig().config()).containsOnlyKeys("");
  }

  @Test
  void sizesOverTheBoundsAreRefused() throws Exception {
    byte[] body = new byte[OpampMessages.MAX_CONFIG_BODY_BYTES];
    assertThat(OpampMessages.decode(config(1, body)).remoteConfig().config().get("file0").body()).hasSize(body.length);
    assertThatThrownBy(() -> OpampMessages.decode(config(1, new byte[body.length + 1])))
        .isInstanceOf(MalformedProtoException.class).hasMessage("config file body of 262145 bytes, over the limit of 262144");

    assertThat(OpampMessages.decode(config(64, new byte[1])).remoteConfig().config()).hasSize(64);
    assertThatThrownBy(() -> OpampMessages.decode(config(65, new byte[1])))
        .isInstanceOf(MalformedProtoException.class).hasMessage("more than 64 config files");

    String longText = "x".repeat(OpampMessages.MAX_TEXT_BYTES + 1);
    assertThatThrownBy(() -> OpampMessages.decode(new ProtoWriter().begin(2).stringField(2, longText).end().toByteArray()))
        .isInstanceOf(MalformedProtoException.class).hasMessageStartingWith("error_message of 4097 bytes");

    assertThatThrownBy(() -> OpampMessages.decode(new byte[OpampMessages.MAX_MESSAGE_BYTES + 1]))
        .isInstanceOf(MalformedProtoException.class).hasMessageStartingWith("ServerToAgent of 1048577 bytes");
  }

  @Test
  void aUidOfAnotherLengthThan16IsRefused() {
    assertThatThrownBy(() -> OpampMessages.decode(new ProtoWriter().begin(8).bytesField(1, new byte[15]).end().toByteArray()))
        .isInstanceOf(MalformedProtoException.class).hasMessage("new_instance_uid of 15 bytes, expected 16");
    assertThatThrownBy(() -> OpampMessages.decode(new ProtoWriter().bytesField(1, new byte[17]).toByteArray()))
        .isInstanceOf(MalformedProtoException.class).hasMessage("instance_uid of 17 bytes, expected 16");
  }

  /** A reply with every field we read and some we skip. */
  private static byte[] validReply() {
    byte[] uid = new byte[16];
    Arrays.fill(uid, (byte) 7);
    ProtoWriter w = new ProtoWriter().bytesField(1, uid);
    w.begin(2).varintField(1, 2).stringField(2, "busy").begin(3).varintField(1, 5_000_000_000L).end().end();
    w.begin(3).begin(1);
    w.begin(1).repeatedString(1, "spanflight").begin(2).stringField(1, "otel.spanflight.enabled=true\n")
        .stringField(2, "text/plain").end().end();
    w.end().bytesField(2, new byte[32]).end();
    w.begin(4).stringField(1, "ignored").end();
    w.varintField(6, 1).varintField(7, 7);
    w.begin(8).bytesField(1, uid).end();
    w.emptyMessage(10);
    return w.toByteArray();
  }

  /** A remote config of {@code files} files named file0, file1... with the given body. */
  private static byte[] config(int files, byte[] body) {
    ProtoWriter w = new ProtoWriter().begin(3).begin(1);
    for (int i = 0; i < files; i++) {
      w.begin(1).repeatedString(1, "file" + i).begin(2).bytesField(1, body).end().end();
    }
    return w.end().end().toByteArray();
  }

  private static void decodesOrRefuses(byte[] bytes) {
    try {
      OpampMessages.decode(bytes);
    } catch (MalformedProtoException expected) {
      // refused, as it may be
    }
  }

  private static void refused(String hex, String message) {
    assertThatThrownBy(() -> OpampMessages.decode(HEX.parseHex(hex))).as(hex)
        .isInstanceOf(MalformedProtoException.class).hasMessageContaining(message);
  }
}
