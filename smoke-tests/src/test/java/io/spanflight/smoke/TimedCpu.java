package io.spanflight.smoke;

import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.opentelemetry.proto.profiles.v1development.Line;
import io.opentelemetry.proto.profiles.v1development.Location;
import io.opentelemetry.proto.profiles.v1development.Profile;
import io.opentelemetry.proto.profiles.v1development.ProfilesDictionary;
import io.opentelemetry.proto.profiles.v1development.ResourceProfiles;
import io.opentelemetry.proto.profiles.v1development.Sample;
import io.opentelemetry.proto.profiles.v1development.ScopeProfiles;
import io.spanflight.smoke.profiles.CpuSamples;
import java.util.ArrayList;
import java.util.List;

/**
 * The CPU time a set of OTLP requests attributes to one function: every sample of every CPU
 * profile (period type {@code cpu}) whose stack contains the function, one entry per timestamp,
 * each worth its value times the period of its own profile ({@code samples}/{@code count}), or its
 * value ({@code cpu}/{@code nanoseconds}, the CPU-time sampler).
 */
record TimedCpu(long epochNanos, long cpuNanos, long period) {

  static List<TimedCpu> of(List<ExportProfilesServiceRequest> requests, String function) {
    List<TimedCpu> all = new ArrayList<>();
    for (ExportProfilesServiceRequest request : requests) {
      ProfilesDictionary dictionary = request.getDictionary();
      for (ResourceProfiles resource : request.getResourceProfilesList()) {
        for (ScopeProfiles scope : resource.getScopeProfilesList()) {
          for (Profile profile : scope.getProfilesList()) {
            if (!CpuSamples.isCpu(profile, dictionary)) {
              continue;
            }
            for (Sample sample : profile.getSamplesList()) {
              if (!contains(sample, dictionary, function)) {
                continue;
              }
              boolean nanos = CpuSamples.isCpuTime(profile, dictionary); // values: CPU ns, not counts
              for (int i = 0; i < sample.getTimestampsUnixNanoCount(); i++) {
                long value = sample.getValuesCount() > i ? sample.getValues(i) : 1;
                long cpuNanos = nanos ? value : value * profile.getPeriod();
                all.add(new TimedCpu(sample.getTimestampsUnixNano(i), cpuNanos, profile.getPeriod()));
              }
            }
          }
        }
      }
    }
    return all;
  }

  private static boolean contains(Sample sample, ProfilesDictionary dictionary, String function) {
    for (int locationIndex : dictionary.getStackTable(sample.getStackIndex()).getLocationIndicesList()) {
      Location location = dictionary.getLocationTable(locationIndex);
      for (Line line : location.getLinesList()) {
        int name = dictionary.getFunctionTable(line.getFunctionIndex()).getNameStrindex();
        if (function.equals(dictionary.getStringTable(name))) {
          return true;
        }
      }
    }
    return false;
  }
}
