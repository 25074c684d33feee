package io.spanflight.smoke.profiles;

import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.opentelemetry.proto.profiles.v1development.KeyValueAndUnit;
import io.opentelemetry.proto.profiles.v1development.Line;
import io.opentelemetry.proto.profiles.v1development.Link;
import io.opentelemetry.proto.profiles.v1development.Location;
import io.opentelemetry.proto.profiles.v1development.Profile;
import io.opentelemetry.proto.profiles.v1development.ProfilesDictionary;
import io.opentelemetry.proto.profiles.v1development.ResourceProfiles;
import io.opentelemetry.proto.profiles.v1development.Sample;
import io.opentelemetry.proto.profiles.v1development.ScopeProfiles;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiPredicate;

/**
 * Decodes the CPU samples of an OTLP profiles request (opentelemetry-proto 1.11 layout) through
 * its shared dictionary: stack, locations, functions and strings for the frames, and the link
 * table for the span.
 */
public final class CpuSamples {
  private CpuSamples() {}

  /**
   * Whether {@code profile} holds CPU samples, period type {@code cpu}: of JFR's execution sampler
   * (sample type {@code samples}, one count each) or of its CPU-time sampler (sample type {@code
   * cpu}, CPU nanoseconds each; the default CPU source on JDK 25 and later).
   */
  public static boolean isCpu(Profile profile, ProfilesDictionary dictionary) {
    String type = dictionary.getStringTable(profile.getSampleType().getTypeStrindex());
    return profile.hasPeriodType()
        && "cpu".equals(dictionary.getStringTable(profile.getPeriodType().getTypeStrindex()))
        && ("samples".equals(type) || "cpu".equals(type));
  }

  /** Whether {@code profile} holds CPU-time samples: each value the CPU nanoseconds of one sample. */
  public static boolean isCpuTime(Profile profile, ProfilesDictionary dictionary) {
    return isCpu(profile, dictionary) && "cpu".equals(dictionary.getStringTable(profile.getSampleType().getTypeStrindex()));
  }

  /** Every sample of every CPU profile in {@code request}. */
  public static List<StackSample> decode(ExportProfilesServiceRequest request) {
    return decode(request, (profile, dictionary) -> isCpu(profile, dictionary));
  }

  /** Every sample of the profiles of sample type {@code type} (such as {@code lock_contention}). */
  public static List<StackSample> decodeType(ExportProfilesServiceRequest request, String type) {
    return decode(
        request,
        (profile, dictionary) ->
            type.equals(dictionary.getStringTable(profile.getSampleType().getTypeStrindex())));
  }

  /** Decodes every request of {@code requests} with {@link #decodeType}. */
  public static List<StackSample> decodeAllOfType(List<ExportProfilesServiceRequest> requests, String type) {
    List<StackSample> samples = new ArrayList<>();
    requests.forEach(request -> samples.addAll(decodeType(request, type)));
    return samples;
  }

  private static List<StackSample> decode(
      ExportProfilesServiceRequest request, BiPredicate<Profile, ProfilesDictionary> selected) {
    ProfilesDictionary dictionary = request.getDictionary();
    List<StackSample> samples = new ArrayList<>();
    for (ResourceProfiles resource : request.getResourceProfilesList()) {
      for (ScopeProfiles scope : resource.getScopeProfilesList()) {
        for (Profile profile : scope.getProfilesList()) {
          if (selected.test(profile, dictionary)) {
            boolean counts = !isCpuTime(profile, dictionary); // a CPU-time sample counts once
            for (Sample sample : profile.getSamplesList()) {
              samples.add(decode(sample, dictionary, counts));
            }
          }
        }
      }
    }
    return samples;
  }

  /** Decodes every request; see {@link #decode(ExportProfilesServiceRequest)}. */
  public static List<StackSample> decodeAll(List<ExportProfilesServiceRequest> requests) {
    List<StackSample> samples = new ArrayList<>();
    requests.forEach(request -> samples.addAll(decode(request)));
    return samples;
  }

  /**
   * @param valuesCount whether the sample's count is the sum of its values (counts, or the
   *     weights of other types); otherwise (CPU-time samples) each timestamp is one sample
   */
  static StackSample decode(Sample sample, ProfilesDictionary dictionary, boolean valuesCount) {
    List<String> frames = new ArrayList<>();
    for (int locationIndex : dictionary.getStackTable(sample.getStackIndex()).getLocationIndicesList()) {
      Location location = dictionary.getLocationTable(locationIndex);
      for (Line line : location.getLinesList()) {
        int nameIndex = dictionary.getFunctionTable(line.getFunctionIndex()).getNameStrindex();
        frames.add(dictionary.getStringTable(nameIndex));
      }
    }
    SpanLink link = null;
    if (sample.getLinkIndex() != 0) {
      Link entry = dictionary.getLinkTable(sample.getLinkIndex());
      link = SpanLink.of(entry.getTraceId(), entry.getSpanId());
    }
    // values hold one value per timestamp: counts sum to the sample's total; without values, or
    // when they weigh rather than count, each timestamp counts once
    long count = valuesCount && sample.getValuesCount() > 0
        ? sample.getValuesList().stream().mapToLong(Long::longValue).sum()
        : Math.max(1, Math.max(sample.getTimestampsUnixNanoCount(), sample.getValuesCount()));
    Map<String, String> attributes = new TreeMap<>();
    for (int index : sample.getAttributeIndicesList()) {
      KeyValueAndUnit attribute = dictionary.getAttributeTable(index);
      attributes.put(dictionary.getStringTable(attribute.getKeyStrindex()), attribute.getValue().getStringValue());
    }
    return new StackSample(List.copyOf(frames), link, count, Map.copyOf(attributes));
  }
}
