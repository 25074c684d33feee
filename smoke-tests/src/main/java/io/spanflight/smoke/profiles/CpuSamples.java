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

  /** Whether {@code profile} holds CPU samples: sample type {@code samples}, period type {@code cpu}. */
  public static boolean isCpu(Profile profile, ProfilesDictionary dictionary) {
    return profile.hasPeriodType()
        && "cpu".equals(dictionary.getStringTable(profile.getPeriodType().getTypeStrindex()))
        && "samples".equals(dictionary.getStringTable(profile.getSampleType().getTypeStrindex()));
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
            for (Sample sample : profile.getSamplesList()) {
              samples.add(decode(sample, dictionary));
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

  static StackSample decode(Sample sample, ProfilesDictionary dictionary) {
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
    // values hold one value per timestamp (their sum is the sample's total); without values,
    // each timestamp counts once
    long count = sample.getValuesCount() > 0
        ? sample.getValuesList().stream().mapToLong(Long::longValue).sum()
        : Math.max(1, sample.getTimestampsUnixNanoCount());
    Map<String, String> attributes = new TreeMap<>();
    for (int index : sample.getAttributeIndicesList()) {
      KeyValueAndUnit attribute = dictionary.getAttributeTable(index);
      attributes.put(dictionary.getStringTable(attribute.getKeyStrindex()), attribute.getValue().getStringValue());
    }
    return new StackSample(List.copyOf(frames), link, count, Map.copyOf(attributes));
  }
}
