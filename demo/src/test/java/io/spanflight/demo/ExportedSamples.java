package io.spanflight.demo;

import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.opentelemetry.proto.profiles.v1development.Line;
import io.opentelemetry.proto.profiles.v1development.Link;
import io.opentelemetry.proto.profiles.v1development.Location;
import io.opentelemetry.proto.profiles.v1development.Profile;
import io.opentelemetry.proto.profiles.v1development.ProfilesDictionary;
import io.opentelemetry.proto.profiles.v1development.ResourceProfiles;
import io.opentelemetry.proto.profiles.v1development.Sample;
import io.opentelemetry.proto.profiles.v1development.ScopeProfiles;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

/**
 * The samples of every {@code .binpb} file (a serialized ExportProfilesServiceRequest) in a
 * directory, decoded with the official generated classes through each request's dictionary.
 */
final class ExportedSamples {
  /** One sample: its profile's sample type, frames leaf first, linked span id (or null), value. */
  record Decoded(String type, List<String> frames, String spanId, long value) {}

  private ExportedSamples() {}

  static List<Decoded> read(Path directory) throws IOException {
    List<Path> files;
    try (Stream<Path> listing = Files.list(directory)) {
      files = listing.filter(p -> p.getFileName().toString().endsWith(".binpb")).sorted().toList();
    }
    List<Decoded> samples = new ArrayList<>();
    for (Path file : files) {
      try (InputStream in = Files.newInputStream(file)) {
        samples.addAll(decode(ExportProfilesServiceRequest.parseFrom(in)));
      }
    }
    return samples;
  }

  static List<Decoded> decode(ExportProfilesServiceRequest request) {
    ProfilesDictionary dictionary = request.getDictionary();
    List<Decoded> samples = new ArrayList<>();
    for (ResourceProfiles resource : request.getResourceProfilesList()) {
      for (ScopeProfiles scope : resource.getScopeProfilesList()) {
        for (Profile profile : scope.getProfilesList()) {
          String type = dictionary.getStringTable(profile.getSampleType().getTypeStrindex());
          for (Sample sample : profile.getSamplesList()) {
            samples.add(decode(type, sample, dictionary));
          }
        }
      }
    }
    return samples;
  }

  private static Decoded decode(String type, Sample sample, ProfilesDictionary dictionary) {
    List<String> frames = new ArrayList<>();
    for (int locationIndex : dictionary.getStackTable(sample.getStackIndex()).getLocationIndicesList()) {
      Location location = dictionary.getLocationTable(locationIndex);
      for (Line line : location.getLinesList()) {
        frames.add(dictionary.getStringTable(dictionary.getFunctionTable(line.getFunctionIndex()).getNameStrindex()));
      }
    }
    String spanId = null;
    if (sample.getLinkIndex() != 0) {
      Link link = dictionary.getLinkTable(sample.getLinkIndex());
      spanId = HexFormat.of().formatHex(link.getSpanId().toByteArray());
    }
    long value = sample.getValuesCount() > 0
        ? sample.getValuesList().stream().mapToLong(Long::longValue).sum()
        : Math.max(1, sample.getTimestampsUnixNanoCount());
    return new Decoded(type, List.copyOf(frames), spanId, value);
  }
}
