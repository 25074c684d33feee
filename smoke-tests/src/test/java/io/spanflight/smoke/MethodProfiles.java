package io.spanflight.smoke;

import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.opentelemetry.proto.profiles.v1development.Link;
import io.opentelemetry.proto.profiles.v1development.Profile;
import io.opentelemetry.proto.profiles.v1development.ProfilesDictionary;
import io.opentelemetry.proto.profiles.v1development.ResourceProfiles;
import io.opentelemetry.proto.profiles.v1development.Sample;
import io.opentelemetry.proto.profiles.v1development.ScopeProfiles;
import io.spanflight.smoke.profiles.SpanLink;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The method profiles a collector received ({@code method_invocations}, {@code method_time},
 * {@code method_trace}), summed per leaf function: how many calls (values of invocations, or
 * timestamps of traces), how many nanoseconds, per linked span how many traced calls, and the
 * latest timestamp.
 */
final class MethodProfiles {
  /** What one sample type holds for one function. */
  static final class Totals {
    long calls;
    long value;
    int deepestStack;
    final Map<SpanLink, Long> callsBySpan = new HashMap<>();
    long unlinkedCalls;
    /** The latest timestamp of the samples (traced calls have one each), 0 without any. */
    long latestTimestampNanos;

    @Override
    public String toString() {
      return "calls=" + calls + " value=" + value + " unlinked=" + unlinkedCalls + " spans=" + callsBySpan.size();
    }
  }

  private final Map<String, Totals> byTypeAndLeaf = new HashMap<>();

  MethodProfiles(List<ExportProfilesServiceRequest> requests) {
    for (ExportProfilesServiceRequest request : requests) {
      ProfilesDictionary dictionary = request.getDictionary();
      for (ResourceProfiles resource : request.getResourceProfilesList()) {
        for (ScopeProfiles scope : resource.getScopeProfilesList()) {
          for (Profile profile : scope.getProfilesList()) {
            String type = dictionary.getStringTable(profile.getSampleType().getTypeStrindex());
            if (type.startsWith("method_")) {
              profile.getSamplesList().forEach(sample -> add(type, sample, dictionary));
            }
          }
        }
      }
    }
  }

  private void add(String type, Sample sample, ProfilesDictionary dictionary) {
    List<Integer> locations = dictionary.getStackTable(sample.getStackIndex()).getLocationIndicesList();
    int function = dictionary.getLocationTable(locations.get(0)).getLines(0).getFunctionIndex();
    String leaf = dictionary.getStringTable(dictionary.getFunctionTable(function).getNameStrindex());
    Totals totals = byTypeAndLeaf.computeIfAbsent(type + " " + leaf, k -> new Totals());
    long value = sample.getValuesList().stream().mapToLong(Long::longValue).sum();
    long calls = type.equals("method_trace") ? sample.getTimestampsUnixNanoCount() : value;
    totals.calls += calls;
    totals.value += value;
    totals.deepestStack = Math.max(totals.deepestStack, locations.size());
    for (long timestamp : sample.getTimestampsUnixNanoList()) {
      totals.latestTimestampNanos = Math.max(totals.latestTimestampNanos, timestamp);
    }
    if (sample.getLinkIndex() == 0) {
      totals.unlinkedCalls += calls;
    } else {
      Link link = dictionary.getLinkTable(sample.getLinkIndex());
      totals.callsBySpan.merge(SpanLink.of(link.getTraceId(), link.getSpanId()), calls, Long::sum);
    }
  }

  /** Every "type function" pair that has samples. */
  java.util.Set<String> typesAndLeaves() {
    return byTypeAndLeaf.keySet();
  }

  /** The totals of {@code type} for the samples whose leaf is {@code function} (empty ones if none). */
  Totals of(String type, String function) {
    return byTypeAndLeaf.getOrDefault(type + " " + function, new Totals());
  }
}
