package io.spanflight.internal.report;

import io.spanflight.internal.format.CostKind;
import io.spanflight.internal.format.Hex;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Everything the report shows, aggregated from any number of decoded requests: the {@link
 * FrameTrie} of all call paths, the sample types, and the samples grouped by endpoint, by trace
 * and by span. Each sample goes to its endpoint (the sample attributes {@code
 * http.request.method} and {@code http.route}, or {@link #NO_ENDPOINT}) and, when it has a link,
 * to the span of that link (and so to its trace); linked samples also add to their endpoint's
 * {@link EndpointCosts}. Memory grows with distinct call paths, spans and
 * leaf nodes per group, not with the number of samples.
 *
 * <p>Over 250 lines because the four groupings (endpoint, trace, span, call path) are filled by one
 * pass over each sample and read together by the page writer.
 *
 * <p>Not API: internal to Spanflight.
 */
final class ReportModel {
  static final String NO_ENDPOINT = "(no endpoint)";
  static final String METHOD_KEY = "http.request.method";
  static final String ROUTE_KEY = "http.route";

  /** A span: its samples, its trace and the endpoint of its first sample. */
  static final class Span extends SampleGroup {
    final Trace trace;
    final String endpoint;

    Span(String spanId, Trace trace, String endpoint) {
      super(spanId);
      this.trace = trace;
      this.endpoint = endpoint;
    }
  }

  /** A trace: its spans, in order of first appearance, and the endpoints its samples carried. */
  static final class Trace {
    final String traceId;
    final Map<String, Span> spans = new LinkedHashMap<>();
    final Set<String> endpoints = new LinkedHashSet<>();

    Trace(String traceId) {
      this.traceId = traceId;
    }

    long firstTimestamp() {
      long first = Long.MAX_VALUE;
      for (Span span : spans.values()) {
        if (span.firstTimestamp() > 0) {
          first = Math.min(first, span.firstTimestamp());
        }
      }
      return first == Long.MAX_VALUE ? 0 : first;
    }

    long samples() {
      long samples = 0;
      for (Span span : spans.values()) {
        for (int type = 0; type < span.typeSlots(); type++) {
          samples += span.samples(type);
        }
      }
      return samples;
    }
  }

  final FrameTrie trie = new FrameTrie();
  final Set<String> services = new LinkedHashSet<>();
  private final List<ReportSampleType> types = new ArrayList<>();
  private final Map<String, Integer> typeIndex = new HashMap<>();
  private final Map<String, SampleGroup> endpoints = new LinkedHashMap<>();
  private final Map<String, Trace> traces = new LinkedHashMap<>();
  private final EndpointCosts costs = new EndpointCosts();
  private long samples;
  private int requests;
  private long startNanos = Long.MAX_VALUE;
  private long endNanos = Long.MIN_VALUE;

  /** Adds every sample of {@code request}. */
  void add(ProfilesRequest request) {
    requests++;
    String service = request.resource.get("service.name");
    if (service != null && !service.isEmpty()) {
      services.add(service);
    }
    ProfilesRequest.Dictionary d = request.dictionary;
    int[] stackLeaf = new int[d.stacks.length];
    Arrays.fill(stackLeaf, -1);
    int[] functionFrame = new int[d.functionNames.length];
    Arrays.fill(functionFrame, -1);
    for (ProfilesRequest.Profile profile : request.profiles) {
      int type = type(profile);
      int costKind = EndpointCosts.kindOf(profile);
      costs.seen(costKind);
      if (profile.timeUnixNano > 0) {
        startNanos = Math.min(startNanos, profile.timeUnixNano);
        endNanos = Math.max(endNanos, profile.timeUnixNano + profile.durationNano);
      }
      for (int i = 0; i < profile.sampleCount; i++) {
        int stack = profile.stack[i];
        if (stackLeaf[stack] < 0) {
          stackLeaf[stack] = leafOf(d, d.stacks[stack], functionFrame);
        }
        int leaf = stackLeaf[stack];
        String endpoint = endpoint(d, profile.attributes[i]);
        long value = profile.value[i];
        long timestamp = profile.firstTimestamp[i];
        int events = profile.events[i];
        endpoints.computeIfAbsent(endpoint, SampleGroup::new).add(type, leaf, value, events, timestamp);
        int link = profile.link[i];
        if (link != 0 && d.linkTraceIds[link].length > 0) {
          span(d, link, endpoint).add(type, leaf, value, events, timestamp);
          if (costKind != CostKind.NONE) {
            costs.add(endpoint, costKind, value, events, profile.period);
          }
        }
        samples += events;
      }
    }
  }

  private int type(ProfilesRequest.Profile profile) {
    String key = ReportSampleType.key(profile.type, profile.unit);
    Integer index = typeIndex.get(key);
    if (index == null) {
      index = types.size();
      types.add(new ReportSampleType(profile.type, profile.unit));
      typeIndex.put(key, index);
    }
    ReportSampleType type = types.get(index);
    if (profile.period > 0) {
      type.period = profile.period;
      type.periodType = profile.periodType;
      type.periodUnit = profile.periodUnit;
    }
    return index;
  }

  /** Walks the stack from its root (the last location) to its leaf, through the trie. */
  private int leafOf(ProfilesRequest.Dictionary d, int[] locations, int[] functionFrame) {
    int node = FrameTrie.ROOT;
    for (int l = locations.length - 1; l >= 0; l--) {
      int[] functions = d.locationFunctions[locations[l]];
      if (functions.length == 0) {
        node = trie.child(node, trie.name("(unknown)"));
      }
      for (int f = functions.length - 1; f >= 0; f--) { // the caller of inlined frames is last
        int function = functions[f];
        if (functionFrame[function] < 0) {
          String name = d.strings[d.functionNames[function]];
          functionFrame[function] = trie.name(name.isEmpty() ? "(unknown)" : name);
        }
        node = trie.child(node, functionFrame[function]);
      }
    }
    return node;
  }

  private static String endpoint(ProfilesRequest.Dictionary d, int[] attributes) {
    if (attributes.length == 0) {
      return NO_ENDPOINT;
    }
    String method = "";
    String route = "";
    for (int attribute : attributes) {
      String key = d.strings[d.attributeKeys[attribute]];
      if (key.equals(METHOD_KEY)) {
        method = d.attributeValues[attribute];
      } else if (key.equals(ROUTE_KEY)) {
        route = d.attributeValues[attribute];
      }
    }
    if (route.isEmpty()) {
      return method.isEmpty() ? NO_ENDPOINT : method + " (no route)";
    }
    return method.isEmpty() ? route : method + " " + route;
  }

  private Span span(ProfilesRequest.Dictionary d, int link, String endpoint) {
    String traceId = Hex.of(d.linkTraceIds[link]);
    Trace trace = traces.computeIfAbsent(traceId, Trace::new);
    trace.endpoints.add(endpoint);
    String spanId = Hex.of(d.linkSpanIds[link]);
    return trace.spans.computeIfAbsent(spanId, id -> new Span(id, trace, endpoint));
  }

  /** The sample types seen, in display order, each with its index into the groups' weights. */
  List<Map.Entry<Integer, ReportSampleType>> typesInOrder() {
    List<Map.Entry<Integer, ReportSampleType>> ordered = new ArrayList<>();
    for (int i = 0; i < types.size(); i++) {
      ordered.add(Map.entry(i, types.get(i)));
    }
    ordered.sort(Comparator.comparingInt((Map.Entry<Integer, ReportSampleType> e) -> e.getValue().rank())
        .thenComparing(e -> e.getValue().type));
    return ordered;
  }

  ReportSampleType type(int index) {
    return types.get(index);
  }

  int typeCount() {
    return types.size();
  }

  /** Endpoints, busiest first (by samples over all types), {@link #NO_ENDPOINT} last. */
  List<SampleGroup> endpoints() {
    List<SampleGroup> sorted = new ArrayList<>(endpoints.values());
    sorted.sort(Comparator.comparing((SampleGroup g) -> g.name.equals(NO_ENDPOINT))
        .thenComparing(Comparator.comparingLong(this::samplesOf).reversed())
        .thenComparing(g -> g.name));
    return sorted;
  }

  /** Traces, those with the most samples first. */
  List<Trace> traces() {
    Map<Trace, Long> samplesOf = new HashMap<>();
    for (Trace trace : traces.values()) {
      samplesOf.put(trace, trace.samples());
    }
    List<Trace> sorted = new ArrayList<>(traces.values());
    sorted.sort(Comparator.comparing((Trace t) -> samplesOf.get(t)).reversed().thenComparing(t -> t.traceId));
    return sorted;
  }

  /** What each request cost per endpoint ({@link EndpointCosts}), the most CPU first. */
  List<EndpointCosts.Row> costRows() {
    return costs.rows(traces.values());
  }

  /** The cost table as the report and the summary show it. */
  EndpointCostTable costTable() {
    return EndpointCostTable.of(costs, costRows());
  }

  int traceCount() {
    return traces.size();
  }

  long samplesOf(SampleGroup group) {
    long total = 0;
    for (int type = 0; type < group.typeSlots(); type++) {
      total += group.samples(type);
    }
    return total;
  }

  long samples() {
    return samples;
  }

  int requests() {
    return requests;
  }

  long startNanos() {
    return startNanos == Long.MAX_VALUE ? 0 : startNanos;
  }

  long endNanos() {
    return endNanos == Long.MIN_VALUE ? 0 : endNanos;
  }
}
