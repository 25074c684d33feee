package io.spanflight.internal.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.profiles.v1development.Sample;
import io.opentelemetry.proto.profiles.v1development.Stack;
import org.junit.jupiter.api.Test;

class ProtoWriterTest {

  @Test
  void nestedMessagesLongerThan127BytesGetMultiByteLengths() throws Exception {
    int[] locations = new int[300];
    for (int i = 0; i < locations.length; i++) {
      locations[i] = i * 1000;
    }
    ProtoWriter w = new ProtoWriter();
    w.packedVarints(1, locations, locations.length);
    Stack parsed = Stack.parseFrom(w.toByteArray());
    assertThat(parsed.getLocationIndicesList()).hasSize(300).startsWith(0, 1000, 2000);
  }

  @Test
  void matchesProtobufJavaForNegativeAndZeroValues() {
    ProtoWriter w = new ProtoWriter();
    w.varintField(1, -5).varintField(3, 0).packedVarints(4, new long[] {1, -1, 300}, 3);
    Sample expected =
        Sample.newBuilder().setStackIndex(-5).addValues(1).addValues(-1).addValues(300).build();
    assertThat(w.toByteArray()).isEqualTo(expected.toByteArray());
  }
}
