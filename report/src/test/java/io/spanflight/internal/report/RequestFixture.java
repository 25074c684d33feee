package io.spanflight.internal.report;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
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
import io.opentelemetry.proto.resource.v1.Resource;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Builds {@code ExportProfilesServiceRequest}s with the official generated classes, shaped like
 * Spanflight's (shared dictionary with zero values at index 0, one profile per sample type), for
 * the reader and aggregation tests.
 */
final class RequestFixture {
  static final long CPU_PERIOD = 20_000_000L;

  private final ProfilesDictionary.Builder dictionary = ProfilesDictionary.newBuilder()
      .addMappingTable(Mapping.getDefaultInstance())
      .addLocationTable(Location.getDefaultInstance())
      .addFunctionTable(Function.getDefaultInstance())
      .addLinkTable(Link.getDefaultInstance())
      .addStringTable("")
      .addAttributeTable(KeyValueAndUnit.getDefaultInstance())
      .addStackTable(Stack.getDefaultInstance());
  private final Map<String, Integer> strings = new HashMap<>(Map.of("", 0));
  private final Map<String, Integer> functions = new HashMap<>();
  private final Map<String, Integer> links = new HashMap<>();
  private final Map<String, Integer> attributes = new HashMap<>();
  private final Map<String, Profile.Builder> profiles = new LinkedHashMap<>();
  private final String service;

  RequestFixture(String service) {
    this.service = service;
  }

  int string(String value) {
    return strings.computeIfAbsent(value, v -> {
      dictionary.addStringTable(v);
      return dictionary.getStringTableCount() - 1;
    });
  }

  int function(String name) {
    return functions.computeIfAbsent(name, n -> {
      dictionary.addFunctionTable(Function.newBuilder().setNameStrindex(string(n))
          .setSystemNameStrindex(string(n + "()V")).setFilenameStrindex(string("X.java")));
      return dictionary.getFunctionTableCount() - 1;
    });
  }

  /** A location whose lines are these functions, innermost (inlined) first. */
  int location(String... functionsInnermostFirst) {
    Location.Builder location = Location.newBuilder().addAttributeIndices(0);
    int line = 10;
    for (String function : functionsInnermostFirst) {
      location.addLines(Line.newBuilder().setFunctionIndex(function(function)).setLine(line++));
    }
    dictionary.addLocationTable(location);
    return dictionary.getLocationTableCount() - 1;
  }

  /** A stack of one location per frame, leaf first. */
  int stack(String... framesLeafFirst) {
    Stack.Builder stack = Stack.newBuilder();
    for (String frame : framesLeafFirst) {
      stack.addLocationIndices(location(frame));
    }
    return stackOfLocations(stack);
  }

  int stackOfLocations(Stack.Builder stack) {
    dictionary.addStackTable(stack);
    return dictionary.getStackTableCount() - 1;
  }

  int link(String traceIdHex, String spanIdHex) {
    return links.computeIfAbsent(traceIdHex + spanIdHex, k -> {
      dictionary.addLinkTable(Link.newBuilder().setTraceId(bytes(traceIdHex)).setSpanId(bytes(spanIdHex)));
      return dictionary.getLinkTableCount() - 1;
    });
  }

  int attribute(String key, String value) {
    return attributes.computeIfAbsent(key + "=" + value, k -> {
      dictionary.addAttributeTable(KeyValueAndUnit.newBuilder().setKeyStrindex(string(key))
          .setValue(AnyValue.newBuilder().setStringValue(value)));
      return dictionary.getAttributeTableCount() - 1;
    });
  }

  /** An attribute whose value is given as {@code string_value_strindex}. */
  int attributeByIndex(String key, String value) {
    dictionary.addAttributeTable(KeyValueAndUnit.newBuilder().setKeyStrindex(string(key))
        .setValue(AnyValue.newBuilder().setStringValueStrindex(string(value))));
    return dictionary.getAttributeTableCount() - 1;
  }

  /** The endpoint attributes of a sample. */
  int[] endpoint(String method, String route) {
    return new int[] {attribute(ReportModel.METHOD_KEY, method), attribute(ReportModel.ROUTE_KEY, route)};
  }

  RequestFixture cpu(int stack, int link, long count, int... attributes) {
    return sample("samples", "count", stack, link, count, attributes);
  }

  RequestFixture sample(String type, String unit, int stack, int link, long value, int... attributeIndexes) {
    Profile.Builder profile = profiles.computeIfAbsent(type + "/" + unit, k -> {
      Profile.Builder p = Profile.newBuilder()
          .setSampleType(ValueType.newBuilder().setTypeStrindex(string(type)).setUnitStrindex(string(unit)))
          .setTimeUnixNano(1_700_000_000_000_000_000L).setDurationNano(10_000_000_000L);
      if (type.equals("samples")) {
        p.setPeriodType(ValueType.newBuilder().setTypeStrindex(string("cpu")).setUnitStrindex(string("nanoseconds")))
            .setPeriod(CPU_PERIOD);
      }
      return p;
    });
    Sample.Builder sample = Sample.newBuilder().setStackIndex(stack).setLinkIndex(link)
        .addValues(value).addTimestampsUnixNano(1_700_000_001_000_000_000L + profile.getSamplesCount());
    for (int attribute : attributeIndexes) {
      sample.addAttributeIndices(attribute);
    }
    profile.addSamples(sample);
    return this;
  }

  ExportProfilesServiceRequest build() {
    ScopeProfiles.Builder scope = ScopeProfiles.newBuilder()
        .setScope(InstrumentationScope.newBuilder().setName("io.spanflight").setVersion("test"));
    profiles.values().forEach(scope::addProfiles);
    return ExportProfilesServiceRequest.newBuilder()
        .addResourceProfiles(ResourceProfiles.newBuilder()
            .setResource(Resource.newBuilder().addAttributes(KeyValue.newBuilder().setKey("service.name")
                .setValue(AnyValue.newBuilder().setStringValue(service))))
            .addScopeProfiles(scope))
        .setDictionary(dictionary)
        .build();
  }

  static ByteString bytes(String hex) {
    byte[] out = new byte[hex.length() / 2];
    for (int i = 0; i < out.length; i++) {
      out[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
    }
    return ByteString.copyFrom(out);
  }
}
