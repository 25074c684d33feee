package io.spanflight.internal.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnknownFieldSet;
import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.opentelemetry.proto.profiles.v1development.Line;
import io.opentelemetry.proto.profiles.v1development.Profile;
import io.opentelemetry.proto.profiles.v1development.ProfilesDictionary;
import io.opentelemetry.proto.profiles.v1development.Sample;
import io.opentelemetry.proto.profiles.v1development.Stack;
import io.spanflight.internal.format.Hex;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The hand-written reader against the official generated classes: the fields our encoder does not
 * write yet (sample attributes, inlined frames, unpacked repeated fields, unknown fields) decode to
 * the same values as protobuf-java reads. What our encoder writes from real JFR samples is read in
 * the extension's {@code EncodedRequestDecodeTest} (the encoder lives there), with {@link
 * #assertSameAsOracle}.
 */
class RequestDecoderTest {
  @Test
  void readsAttributesInlinedFramesUnpackedValuesAndSkipsUnknownFields() throws Exception {
    RequestFixture f = new RequestFixture("fixture");
    int inlined = f.stackOfLocations(Stack.newBuilder()
        .addLocationIndices(f.location("app.Inner.leaf", "app.Outer.caller"))
        .addLocationIndices(f.location("app.Main.main")));
    int link = f.link("0102030405060708090a0b0c0d0e0f10", "1112131415161718");
    int[] endpoint = f.endpoint("GET", "/checkout");
    int byIndex = f.attributeByIndex("http.route", "/search");
    f.cpu(inlined, link, 2, endpoint);
    f.cpu(inlined, 0, 1, byIndex);
    ExportProfilesServiceRequest built = f.build();
    // an unpacked extra value (field 4, wire type 0) and unknown fields at every level
    Profile.Builder profile = built.getResourceProfiles(0).getScopeProfiles(0).getProfiles(0).toBuilder();
    profile.setSamples(0, profile.getSamples(0).toBuilder().setUnknownFields(UnknownFieldSet.newBuilder()
        .addField(4, UnknownFieldSet.Field.newBuilder().addVarint(5).build())
        .addField(77, UnknownFieldSet.Field.newBuilder().addFixed32(7).addLengthDelimited(ByteString.copyFromUtf8("x")).build())
        .build()));
    ExportProfilesServiceRequest request = built.toBuilder()
        .setResourceProfiles(0, built.getResourceProfiles(0).toBuilder()
            .setScopeProfiles(0, built.getResourceProfiles(0).getScopeProfiles(0).toBuilder().setProfiles(0, profile)))
        .setUnknownFields(UnknownFieldSet.newBuilder()
            .addField(99, UnknownFieldSet.Field.newBuilder().addFixed64(1).addVarint(300).build()).build())
        .build();
    byte[] bytes = request.toByteArray();
    ExportProfilesServiceRequest oracle = ExportProfilesServiceRequest.parseFrom(bytes);
    assertThat(oracle.getResourceProfiles(0).getScopeProfiles(0).getProfiles(0).getSamples(0).getValuesList())
        .as("the oracle reads the unpacked value too").containsExactly(2L, 5L);

    ProfilesRequest decoded = RequestDecoder.decode(bytes);

    assertSameAsOracle(decoded, oracle);
    ProfilesRequest.Dictionary d = decoded.dictionary;
    assertThat(frames(d, inlined)).containsExactly("app.Inner.leaf", "app.Outer.caller", "app.Main.main");
    ProfilesRequest.Profile cpu = decoded.profiles.get(0);
    assertThat(cpu.value[0]).isEqualTo(7);
    assertThat(attributes(d, cpu.attributes[0])).containsExactly("http.request.method=GET", "http.route=/checkout");
    assertThat(attributes(d, cpu.attributes[1])).containsExactly("http.route=/search");
  }

  @Test
  void refusesTruncatedAndOutOfRangeInput() throws Exception {
    RequestFixture f = new RequestFixture("fixture");
    f.cpu(f.stack("a.B.c"), 0, 1);
    byte[] bytes = f.build().toByteArray();

    assertThatThrownBy(() -> RequestDecoder.decode(Arrays.copyOf(bytes, bytes.length - 3)))
        .isInstanceOf(MalformedProfileException.class).hasMessageContaining("at byte");
    assertThatThrownBy(() -> RequestDecoder.decode(new byte[] {(byte) 0x0f, 1, 2}))
        .isInstanceOf(MalformedProfileException.class).hasMessageContaining("wire type");

    ExportProfilesServiceRequest request = f.build();
    Profile bad = request.getResourceProfiles(0).getScopeProfiles(0).getProfiles(0).toBuilder()
        .setSamples(0, Sample.newBuilder().setStackIndex(42).addValues(1)).build();
    byte[] outOfRange = request.toBuilder().setResourceProfiles(0, request.getResourceProfiles(0).toBuilder()
        .setScopeProfiles(0, request.getResourceProfiles(0).getScopeProfiles(0).toBuilder().setProfiles(0, bad)))
        .build().toByteArray();
    assertThatThrownBy(() -> RequestDecoder.decode(outOfRange))
        .isInstanceOf(MalformedProfileException.class).hasMessageContaining("stack_index 42");
  }

  @Test
  void aRequestWithAnEmptyDictionaryHasNoProfiles() throws Exception {
    assertThat(RequestDecoder.decode(new byte[] {0x12, 0x00}).profiles).isEmpty();
  }

  /** Every profile and sample as the generated classes read them. */
  static void assertSameAsOracle(ProfilesRequest decoded, ExportProfilesServiceRequest oracle) {
    ProfilesDictionary od = oracle.getDictionary();
    List<Profile> profiles = oracle.getResourceProfiles(0).getScopeProfiles(0).getProfilesList();
    assertThat(decoded.profiles).hasSameSizeAs(profiles);
    for (int p = 0; p < profiles.size(); p++) {
      Profile expected = profiles.get(p);
      ProfilesRequest.Profile actual = decoded.profiles.get(p);
      assertThat(actual.type).isEqualTo(od.getStringTable(expected.getSampleType().getTypeStrindex()));
      assertThat(actual.unit).isEqualTo(od.getStringTable(expected.getSampleType().getUnitStrindex()));
      assertThat(actual.period).isEqualTo(expected.getPeriod());
      assertThat(actual.timeUnixNano).isEqualTo(expected.getTimeUnixNano());
      assertThat(actual.durationNano).isEqualTo(expected.getDurationNano());
      assertThat(actual.sampleCount).isEqualTo(expected.getSamplesCount()).isPositive();
      for (int i = 0; i < expected.getSamplesCount(); i++) {
        Sample s = expected.getSamples(i);
        assertThat(frames(decoded.dictionary, actual.stack[i])).as("sample %d", i)
            .isEqualTo(oracleFrames(od, s.getStackIndex()));
        assertThat(actual.value[i]).isEqualTo(s.getValuesList().stream().mapToLong(Long::longValue).sum());
        assertThat(actual.firstTimestamp[i])
            .isEqualTo(s.getTimestampsUnixNanoList().stream().mapToLong(Long::longValue).min().orElse(0));
        assertThat(Hex.of(decoded.dictionary.linkTraceIds[actual.link[i]]))
            .isEqualTo(hex(od.getLinkTable(s.getLinkIndex()).getTraceId()));
        assertThat(Hex.of(decoded.dictionary.linkSpanIds[actual.link[i]]))
            .isEqualTo(hex(od.getLinkTable(s.getLinkIndex()).getSpanId()));
        assertThat(actual.attributes[i]).containsExactly(s.getAttributeIndicesList().stream().mapToInt(Integer::intValue).toArray());
      }
    }
  }

  static List<String> frames(ProfilesRequest.Dictionary d, int stack) {
    List<String> names = new ArrayList<>();
    for (int location : d.stacks[stack]) {
      for (int function : d.locationFunctions[location]) {
        names.add(d.strings[d.functionNames[function]]);
      }
    }
    return names;
  }

  private static List<String> oracleFrames(ProfilesDictionary d, int stack) {
    List<String> names = new ArrayList<>();
    for (int location : d.getStackTable(stack).getLocationIndicesList()) {
      for (Line line : d.getLocationTable(location).getLinesList()) {
        names.add(d.getStringTable(d.getFunctionTable(line.getFunctionIndex()).getNameStrindex()));
      }
    }
    return names;
  }

  private static List<String> attributes(ProfilesRequest.Dictionary d, int[] indexes) {
    List<String> out = new ArrayList<>();
    for (int index : indexes) {
      out.add(d.strings[d.attributeKeys[index]] + "=" + d.attributeValues[index]);
    }
    return out;
  }

  private static String hex(ByteString bytes) {
    return Hex.of(bytes.toByteArray());
  }
}
