package io.spanflight.internal.export;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesPartialSuccess;
import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceResponse;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The hand-written reader against responses serialized by the official generated classes. */
class PartialSuccessTest {

  @Test
  void readsRejectedCountAndMessage() {
    byte[] response = ExportProfilesServiceResponse.newBuilder()
        .setPartialSuccess(ExportProfilesPartialSuccess.newBuilder()
            .setRejectedProfiles(300).setErrorMessage("dictionary index out of range ü"))
        .build().toByteArray();

    PartialSuccess partial = PartialSuccess.parse(response);

    assertThat(partial.rejectedProfiles()).isEqualTo(300);
    assertThat(partial.errorMessage()).isEqualTo("dictionary index out of range ü");
  }

  @Test
  void emptyMissingOrGarbledResponsesAreFullSuccess() {
    byte[] full = ExportProfilesServiceResponse.newBuilder()
        .setPartialSuccess(ExportProfilesPartialSuccess.newBuilder().setRejectedProfiles(5))
        .build().toByteArray();
    for (byte[] response : new byte[][] {null, new byte[0], Arrays.copyOf(full, full.length - 1), {(byte) 0xff}}) {
      PartialSuccess partial = PartialSuccess.parse(response);
      assertThat(partial.rejectedProfiles()).isZero();
      assertThat(partial.errorMessage()).isEmpty();
    }
  }
}
