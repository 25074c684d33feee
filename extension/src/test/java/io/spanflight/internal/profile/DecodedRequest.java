package io.spanflight.internal.profile;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.opentelemetry.proto.profiles.v1development.Profile;
import io.opentelemetry.proto.profiles.v1development.ProfilesDictionary;
import io.opentelemetry.proto.profiles.v1development.Sample;
import io.opentelemetry.sdk.resources.Resource;
import java.util.ArrayList;
import java.util.List;

/**
 * For tests in other packages: a collector's interval encoded by {@link ExportRequestEncoder} and
 * read back with the official classes, its samples found by type and leaf.
 */
public final class DecodedRequest {
  private final ExportProfilesServiceRequest request;
  private final ProfilesDictionary dictionary;

  private DecodedRequest(ExportProfilesServiceRequest request) {
    this.request = request;
    this.dictionary = request.getDictionary();
  }

  /** What {@code collector} collected since its last interval was taken. */
  public static DecodedRequest takeInterval(ProfileCollector collector) throws Exception {
    byte[] bytes = new ExportRequestEncoder(Resource.create(Attributes.empty()), "test")
        .encode(collector.takeInterval(), EpochClock.nowNanos());
    return new DecodedRequest(ExportProfilesServiceRequest.parseFrom(bytes));
  }

  public ProfilesDictionary dictionary() {
    return dictionary;
  }

  /** The sum of the values of the samples of {@code type} whose leaf is the function {@code leaf}. */
  public long total(String type, String leaf) {
    long total = 0;
    for (Sample sample : samples(type)) {
      if (frames(sample).get(0).equals(leaf)) {
        total += sample.getValuesList().stream().mapToLong(Long::longValue).sum();
      }
    }
    return total;
  }

  /** The samples of {@code type}; none in a request without profiles. */
  public List<Sample> samples(String type) {
    List<Sample> found = new ArrayList<>();
    if (request.getResourceProfilesCount() == 0) {
      return found;
    }
    for (Profile profile : request.getResourceProfiles(0).getScopeProfiles(0).getProfilesList()) {
      if (dictionary.getStringTable(profile.getSampleType().getTypeStrindex()).equals(type)) {
        found.addAll(profile.getSamplesList());
      }
    }
    return found;
  }

  /** The function names of {@code sample}'s stack, leaf first. */
  public List<String> frames(Sample sample) {
    List<String> names = new ArrayList<>();
    for (int location : dictionary.getStackTable(sample.getStackIndex()).getLocationIndicesList()) {
      int function = dictionary.getLocationTable(location).getLines(0).getFunctionIndex();
      names.add(dictionary.getStringTable(dictionary.getFunctionTable(function).getNameStrindex()));
    }
    return names;
  }
}
