package io.spanflight.internal.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.spanflight.internal.tables.LongList;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class ProtoReaderTest {

  @Test
  void readsWhatTheWriterWroteAndSkipsWhatItDoesNotAskFor() throws Exception {
    byte[] bytes = new ProtoWriter().varintField(1, -5).fixed64Field(2, 7).stringField(3, "ü")
        .begin(4).packedVarints(1, new long[] {1, 300}, 2).end().varintField(9, 42).toByteArray();
    ProtoReader in = new ProtoReader(bytes);
    assertThat(in.nextField()).isEqualTo(1);
    assertThat(in.readVarint()).isEqualTo(-5);
    assertThat(in.nextField()).isEqualTo(2);
    assertThat(in.readFixed64()).isEqualTo(7);
    assertThat(in.nextField()).isEqualTo(3);
    assertThat(in.readString()).isEqualTo("ü");
    assertThat(in.nextField()).isEqualTo(4);
    ProtoReader nested = in.readMessage();
    nested.nextField();
    LongList values = new LongList();
    nested.readVarints(values);
    assertThat(values.size()).isEqualTo(2);
    assertThat(values.get(1)).isEqualTo(300);
    assertThat(in.nextField()).isEqualTo(9);
    in.skipField();
    assertThat(in.hasMore()).isFalse();
  }

  @Test
  void malformedInputIsAMalformedProtoExceptionThatSaysWhereAndWhy() {
    byte[] lengthPastEnd = {0x0a, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x07, 1};
    assertThatThrownBy(() -> readAll(lengthPastEnd)).isInstanceOf(MalformedProtoException.class)
        .hasMessage("length 2147483647 runs past the end of its message at byte 6");
    byte[] elevenByteVarint = new byte[12];
    Arrays.fill(elevenByteVarint, 1, 12, (byte) 0x80);
    elevenByteVarint[0] = 0x08;
    assertThatThrownBy(() -> readAll(elevenByteVarint)).isInstanceOf(MalformedProtoException.class)
        .hasMessageContaining("varint longer than 10 bytes");
    assertThatThrownBy(() -> readAll(new byte[] {0x0b})).isInstanceOf(MalformedProtoException.class)
        .hasMessageContaining("unsupported wire type 3");
    assertThatThrownBy(() -> readAll(new byte[] {0x09, 1, 2})).isInstanceOf(MalformedProtoException.class)
        .hasMessageContaining("truncated field");
  }

  private static void readAll(byte[] bytes) throws MalformedProtoException {
    ProtoReader in = new ProtoReader(bytes);
    while (in.hasMore()) {
      in.nextField();
      in.skipField();
    }
  }
}
