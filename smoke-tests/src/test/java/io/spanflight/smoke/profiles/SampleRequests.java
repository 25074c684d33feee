package io.spanflight.smoke.profiles;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.opentelemetry.proto.profiles.v1development.Function;
import io.opentelemetry.proto.profiles.v1development.KeyValueAndUnit;
import io.opentelemetry.proto.profiles.v1development.Line;
import io.opentelemetry.proto.profiles.v1development.Link;
import io.opentelemetry.proto.profiles.v1development.Location;
import io.opentelemetry.proto.profiles.v1development.Mapping;
import io.opentelemetry.proto.profiles.v1development.Profile;
import io.opentelemetry.proto.profiles.v1development.ProfilesDictionary;
import io.opentelemetry.proto.profiles.v1development.ResourceProfiles;
import io.opentelemetry.proto.profiles.v1development.Sample;
import io.opentelemetry.proto.profiles.v1development.ScopeProfiles;
import io.opentelemetry.proto.profiles.v1development.Stack;
import io.opentelemetry.proto.profiles.v1development.ValueType;
import java.util.HexFormat;
import java.util.List;

/** Small hand-made profiles requests in the opentelemetry-proto 1.11 layout, for unit tests. */
public final class SampleRequests {
  public static final String TRACE_ID = "0af7651916cd43dd8448eb211c80319c";
  public static final String SPAN_ID = "b7ad6b7169203331";
  public static final String BURN = "io.spanflight.smoke.app.BurnWork.burnCpuInsideRequest";
  public static final String HANDLER = "io.spanflight.smoke.app.BurnApp.handle";
  public static final String THREAD_RUN = "java.lang.Thread.run";

  private SampleRequests() {}

  /**
   * One CPU profile with two samples: {@code BURN <- HANDLER <- THREAD_RUN} linked to
   * TRACE_ID/SPAN_ID with two timestamps, and {@code THREAD_RUN} alone, unlinked, value 3.
   */
  public static ExportProfilesServiceRequest burnAndIdle() {
    List<String> strings = List.of("", "samples", "count", "cpu", "nanoseconds", BURN, HANDLER, THREAD_RUN);
    ProfilesDictionary.Builder dictionary = ProfilesDictionary.newBuilder()
        .addAllStringTable(strings)
        .addMappingTable(Mapping.getDefaultInstance())
        .addAttributeTable(KeyValueAndUnit.getDefaultInstance())
        .addFunctionTable(Function.getDefaultInstance())
        .addLocationTable(Location.getDefaultInstance())
        .addStackTable(Stack.getDefaultInstance())
        .addLinkTable(Link.getDefaultInstance())
        .addLinkTable(Link.newBuilder().setTraceId(hex(TRACE_ID)).setSpanId(hex(SPAN_ID)));
    for (int function = 1; function <= 3; function++) {
      dictionary.addFunctionTable(Function.newBuilder().setNameStrindex(4 + function));
      dictionary.addLocationTable(Location.newBuilder().addLines(Line.newBuilder().setFunctionIndex(function)));
    }
    dictionary.addStackTable(Stack.newBuilder().addAllLocationIndices(List.of(1, 2, 3)));
    dictionary.addStackTable(Stack.newBuilder().addLocationIndices(3));

    Profile profile = Profile.newBuilder()
        .setSampleType(ValueType.newBuilder().setTypeStrindex(1).setUnitStrindex(2))
        .setPeriodType(ValueType.newBuilder().setTypeStrindex(3).setUnitStrindex(4))
        .setPeriod(10_000_000)
        .addSamples(Sample.newBuilder().setStackIndex(1).setLinkIndex(1)
            .addTimestampsUnixNano(1_000).addTimestampsUnixNano(2_000))
        .addSamples(Sample.newBuilder().setStackIndex(2).addValues(3))
        .build();
    return ExportProfilesServiceRequest.newBuilder()
        .setDictionary(dictionary)
        .addResourceProfiles(ResourceProfiles.newBuilder()
            .addScopeProfiles(ScopeProfiles.newBuilder().addProfiles(profile)))
        .build();
  }

  private static ByteString hex(String hex) {
    return ByteString.copyFrom(HexFormat.of().parseHex(hex));
  }
}
