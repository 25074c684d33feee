package io.spanflight.smoke;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.spanflight.smoke.profiles.SampleRequests;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class ProfileChecksTest {

  @Test
  void wellFormedRequestPasses() {
    assertThat(ProfileChecks.dictionaryViolations(SampleRequests.burnAndIdle())).isEmpty();
  }

  @Test
  void reportsEachBrokenRule() {
    assertThat(violations(r -> r.getDictionaryBuilder().setStringTable(0, "x")))
        .anyMatch(v -> v.startsWith("string_table[0]"));
    assertThat(violations(r -> r.getDictionaryBuilder().addStringTable("samples")))
        .containsExactly("duplicate string \"samples\"");
    assertThat(violations(r -> r.getDictionaryBuilder().removeMappingTable(0)))
        .contains("mapping_table[0] must be present and the zero value, is missing");
    assertThat(violations(r -> r.getDictionaryBuilder().getLinkTableBuilder(1)
        .setSpanId(ByteString.copyFrom(new byte[4]))))
        .containsExactly("link_table[1]: trace id 16 bytes, span id 4 bytes (want 16 and 8)");
    assertThat(violations(r -> r.getResourceProfilesBuilder(0).getScopeProfilesBuilder(0)
        .getProfilesBuilder(0).getSamplesBuilder(0).setStackIndex(9)))
        .containsExactly("sample stack_index 9 out of range [0, 3)");
  }

  private static List<String> violations(Consumer<ExportProfilesServiceRequest.Builder> breakIt) {
    ExportProfilesServiceRequest.Builder request = SampleRequests.burnAndIdle().toBuilder();
    breakIt.accept(request);
    return ProfileChecks.dictionaryViolations(request.build());
  }
}
