package io.spanflight.smoke;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
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
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Writes export files shaped like a busy service's, for measuring the report at scale: five
 * endpoints (as sample attributes), traces of one to three spans, stacks 30 to 70 frames deep
 * over a shared server prefix, and the sample types a default Spanflight run exports (CPU,
 * allocation, lock, park, socket, file). Deterministic for a given seed.
 */
final class SyntheticProfiles {
  static final List<String> ROUTES = List.of("/checkout", "/search", "/inventory", "/report", "/recommend");
  private static final String[][] TYPES = {
    {"samples", "count"}, {"alloc_space", "bytes"}, {"lock_contention", "nanoseconds"},
    {"park", "nanoseconds"}, {"socket_read", "nanoseconds"}, {"file_read", "nanoseconds"}};
  private static final int[] TYPE_WEIGHTS = {60, 20, 5, 5, 5, 5};

  private final Random random;
  private final List<List<String>> paths = new ArrayList<>(); // root first, per (endpoint, variant)
  private final int variantsPerEndpoint;

  SyntheticProfiles(long seed, int variantsPerEndpoint) {
    this.random = new Random(seed);
    this.variantsPerEndpoint = variantsPerEndpoint;
    List<String> server = new ArrayList<>();
    server.add("java.lang.Thread.run");
    for (int i = 0; i < 24; i++) {
      server.add("org.example.server.Pipeline" + (i % 6) + ".stage" + i);
    }
    for (String route : ROUTES) {
      String handler = "org.example.shop." + Character.toUpperCase(route.charAt(1)) + route.substring(2) + "Handler";
      for (int v = 0; v < variantsPerEndpoint; v++) {
        List<String> path = new ArrayList<>(server);
        path.add(handler + ".handle");
        int depth = 5 + random.nextInt(40);
        for (int d = 0; d < depth; d++) {
          path.add("org.example.shop.service.Layer" + d + ".call" + random.nextInt(4));
        }
        path.add(handler + ".leaf" + random.nextInt(200));
        paths.add(path);
      }
    }
  }

  /** Writes {@code samples} samples into {@code files} files; returns the number of traces. */
  int write(Path directory, int samples, int files) throws IOException {
    int traces = 0;
    long time = 1_790_000_000_000_000_000L;
    for (int file = 0; file < files; file++) {
      Request request = new Request();
      int inFile = samples / files + (file < samples % files ? 1 : 0);
      int written = 0;
      while (written < inFile) {
        int endpoint = random.nextInt(ROUTES.size());
        String traceId = hex(16);
        int spans = 1 + random.nextInt(3);
        traces++;
        for (int s = 0; s < spans && written < inFile; s++) {
          int link = request.link(traceId, hex(8));
          int perSpan = 1 + random.nextInt(4);
          for (int k = 0; k < perSpan && written < inFile; k++) {
            int type = pickType();
            List<String> path = paths.get(endpoint * variantsPerEndpoint + random.nextInt(variantsPerEndpoint));
            long value = type == 0 ? 1 : type == 1 ? 1024L * (1 + random.nextInt(4096)) : 20_000_000L + random.nextInt(200_000_000);
            request.sample(type, request.stack(path), link, request.endpoint(endpoint), value, time += 50_000);
            written++;
          }
        }
      }
      Files.write(directory.resolve(String.format("spanflight-%d-1-%d.binpb", 1_790_000_000_000L + file, file + 1)),
          request.build().toByteArray());
    }
    return traces;
  }

  private int pickType() {
    int r = random.nextInt(100);
    for (int i = 0; i < TYPE_WEIGHTS.length; i++) {
      r -= TYPE_WEIGHTS[i];
      if (r < 0) {
        return i;
      }
    }
    return 0;
  }

  private String hex(int bytes) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < bytes; i++) {
      out.append(String.format("%02x", random.nextInt(256)));
    }
    return out.toString();
  }

  /** One request's dictionary and profiles. */
  static final class Request {
    final ProfilesDictionary.Builder d = ProfilesDictionary.newBuilder()
        .addMappingTable(Mapping.getDefaultInstance()).addLocationTable(Location.getDefaultInstance())
        .addFunctionTable(Function.getDefaultInstance()).addLinkTable(Link.getDefaultInstance())
        .addStringTable("").addAttributeTable(KeyValueAndUnit.getDefaultInstance())
        .addStackTable(Stack.getDefaultInstance());
    final Map<String, Integer> strings = new HashMap<>(Map.of("", 0));
    final Map<String, Integer> locations = new HashMap<>();
    final Map<List<String>, Integer> stacks = new HashMap<>();
    final Map<Integer, int[]> endpoints = new HashMap<>();
    final Map<Integer, Profile.Builder> profiles = new LinkedHashMap<>();

    int string(String s) {
      return strings.computeIfAbsent(s, k -> {
        d.addStringTable(k);
        return d.getStringTableCount() - 1;
      });
    }

    int stack(List<String> rootFirst) {
      return stacks.computeIfAbsent(rootFirst, path -> {
        Stack.Builder stack = Stack.newBuilder();
        for (int i = path.size() - 1; i >= 0; i--) {
          String name = path.get(i);
          stack.addLocationIndices(locations.computeIfAbsent(name, n -> {
            d.addFunctionTable(Function.newBuilder().setNameStrindex(string(n)));
            d.addLocationTable(Location.newBuilder().addLines(Line.newBuilder().setFunctionIndex(d.getFunctionTableCount() - 1)));
            return d.getLocationTableCount() - 1;
          }));
        }
        d.addStackTable(stack);
        return d.getStackTableCount() - 1;
      });
    }

    int link(String traceId, String spanId) {
      d.addLinkTable(Link.newBuilder().setTraceId(bytes(traceId)).setSpanId(bytes(spanId)));
      return d.getLinkTableCount() - 1;
    }

    int[] endpoint(int endpoint) {
      return endpoints.computeIfAbsent(endpoint, e -> {
        int[] attributes = new int[2];
        d.addAttributeTable(KeyValueAndUnit.newBuilder().setKeyStrindex(string("http.request.method"))
            .setValue(AnyValue.newBuilder().setStringValue(e == 0 ? "POST" : "GET")));
        attributes[0] = d.getAttributeTableCount() - 1;
        d.addAttributeTable(KeyValueAndUnit.newBuilder().setKeyStrindex(string("http.route"))
            .setValue(AnyValue.newBuilder().setStringValue(ROUTES.get(e))));
        attributes[1] = d.getAttributeTableCount() - 1;
        return attributes;
      });
    }

    void sample(int type, int stack, int link, int[] attributes, long value, long time) {
      Profile.Builder profile = profiles.computeIfAbsent(type, t -> {
        Profile.Builder p = Profile.newBuilder().setSampleType(ValueType.newBuilder()
            .setTypeStrindex(string(TYPES[t][0])).setUnitStrindex(string(TYPES[t][1])));
        if (t == 0) {
          p.setPeriodType(ValueType.newBuilder().setTypeStrindex(string("cpu")).setUnitStrindex(string("nanoseconds")))
              .setPeriod(20_000_000L);
        }
        return p;
      });
      profile.addSamples(Sample.newBuilder().setStackIndex(stack).setLinkIndex(link)
          .addAttributeIndices(attributes[0]).addAttributeIndices(attributes[1])
          .addValues(value).addTimestampsUnixNano(time));
    }

    ExportProfilesServiceRequest build() {
      ScopeProfiles.Builder scope = ScopeProfiles.newBuilder();
      profiles.values().forEach(p -> scope.addProfiles(p.setTimeUnixNano(1_790_000_000_000_000_000L).setDurationNano(10_000_000_000L)));
      return ExportProfilesServiceRequest.newBuilder()
          .addResourceProfiles(ResourceProfiles.newBuilder()
              .setResource(Resource.newBuilder().addAttributes(KeyValue.newBuilder().setKey("service.name")
                  .setValue(AnyValue.newBuilder().setStringValue("synthetic-shop"))))
              .addScopeProfiles(scope))
          .setDictionary(d).build();
    }

    private static ByteString bytes(String hex) {
      byte[] out = new byte[hex.length() / 2];
      for (int i = 0; i < out.length; i++) {
        out[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
      }
      return ByteString.copyFrom(out);
    }
  }
}
