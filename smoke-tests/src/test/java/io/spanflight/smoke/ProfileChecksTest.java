package io.spanflight.smoke;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.profiles.v1development.KeyValueAndUnit;
import io.opentelemetry.proto.profiles.v1development.Profile;
import io.opentelemetry.proto.profiles.v1development.ProfilesDictionary;
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

  /** burnAndIdle made fully conforming: frame types, service.name, a window, one shape. */
  static ExportProfilesServiceRequest conforming() {
    ExportProfilesServiceRequest.Builder r = SampleRequests.burnAndIdle().toBuilder();
    ProfilesDictionary.Builder d = r.getDictionaryBuilder();
    d.addStringTable(ProfileChecks.FRAME_TYPE);
    d.addAttributeTable(KeyValueAndUnit.newBuilder().setKeyStrindex(d.getStringTableCount() - 1)
        .setValue(AnyValue.newBuilder().setStringValue("jvm")));
    for (int i = 1; i < d.getLocationTableCount(); i++) {
      d.getLocationTableBuilder(i).addAttributeIndices(d.getAttributeTableCount() - 1);
    }
    r.getResourceProfilesBuilder(0).getResourceBuilder().addAttributes(KeyValue.newBuilder()
        .setKey("service.name").setValue(AnyValue.newBuilder().setStringValue("svc")));
    Profile.Builder p = r.getResourceProfilesBuilder(0).getScopeProfilesBuilder(0).getProfilesBuilder(0);
    p.setTimeUnixNano(1_000).setDurationNano(10_000);
    p.getSamplesBuilder(0).addValues(1).addValues(1); // timestamps 1000 and 2000
    p.getSamplesBuilder(1).addTimestampsUnixNano(5_000); // value 3
    return r.build();
  }

  @Test
  void conformingRequestPasses() {
    assertThat(ProfileChecks.conformanceViolations(conforming())).isEmpty();
  }

  @Test
  void reportsEachBrokenConformanceRule() {
    assertThat(conformance(r -> r.getResourceProfilesBuilder(0).getResourceBuilder().clearAttributes()))
        .containsExactly("resource_profiles[0] has no plain string service.name resource attribute");
    assertThat(conformance(r -> r.getDictionaryBuilder().getLocationTableBuilder(2).clearAttributeIndices()))
        .containsExactly("location_table[2] has no profile.frame.type attribute");
    assertThat(conformance(r -> r.getDictionaryBuilder().getLocationTableBuilder(1).addAttributeIndices(1)))
        .containsExactly("location_table[1] repeats attribute key \"profile.frame.type\"");
    assertThat(conformance(r -> r.getDictionaryBuilder().addStackTable(r.getDictionary().getStackTable(1))))
        .containsExactly("stack_table[3] duplicates stack_table[1]");
    assertThat(conformance(r -> profile(r).setDurationNano(1_000)))
        .containsExactly("resource_profiles[0].scope_profiles[0].profiles[0].samples[0] timestamp 2000"
            + " outside [1000, 2000)", "resource_profiles[0].scope_profiles[0].profiles[0].samples[1]"
            + " timestamp 5000 outside [1000, 2000)");
    assertThat(conformance(r -> profile(r).getSamplesBuilder(1).clearTimestampsUnixNano()))
        .containsExactly("resource_profiles[0].scope_profiles[0].profiles[0].samples[1] differs in shape"
            + " (values/timestamps present) from samples[0]");
    assertThat(conformance(r -> profile(r).getSamplesBuilder(0).addValues(1)))
        .containsExactly("resource_profiles[0].scope_profiles[0].profiles[0].samples[0] has 3 values but 2"
            + " timestamps");
    assertThat(conformance(r -> profile(r).clearSamples()))
        .containsExactly("resource_profiles[0].scope_profiles[0].profiles[0] has no samples (empty profiles are"
            + " not sent)");
    assertThat(conformance(r -> r.getResourceProfilesBuilder(0).getScopeProfilesBuilder(0).clearProfiles()))
        .containsExactly("resource_profiles[0].scope_profiles[0] has no profiles");
    assertThat(conformance(ExportProfilesServiceRequest.Builder::clearResourceProfiles))
        .containsExactly("no resource_profiles");
  }

  private static Profile.Builder profile(ExportProfilesServiceRequest.Builder r) {
    return r.getResourceProfilesBuilder(0).getScopeProfilesBuilder(0).getProfilesBuilder(0);
  }

  private static List<String> conformance(Consumer<ExportProfilesServiceRequest.Builder> breakIt) {
    ExportProfilesServiceRequest.Builder request = conforming().toBuilder();
    breakIt.accept(request);
    return ProfileChecks.conformanceViolations(request.build());
  }

  private static List<String> violations(Consumer<ExportProfilesServiceRequest.Builder> breakIt) {
    ExportProfilesServiceRequest.Builder request = SampleRequests.burnAndIdle().toBuilder();
    breakIt.accept(request);
    return ProfileChecks.dictionaryViolations(request.build());
  }
}
