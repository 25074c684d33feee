package io.spanflight.smoke;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Checks every profiles request must pass, whatever the test. {@link #dictionaryViolations}: the
 * shared dictionary's zero entries, no duplicate strings, well-formed link ids, every index in
 * range. {@link #conformanceViolations} adds the rest of DESIGN.md section 5: at least one
 * resource, scope and profile (none empty); no duplicate entry in any table; unique keys within
 * each attribute list; sample timestamps inside [time_unix_nano, time_unix_nano + duration_nano);
 * one sample shape per profile; {@code profile.frame.type} on every location; {@code service.name}
 * as a plain string resource attribute. {@code SmokeTestBase} runs it on every request any smoke
 * test receives.
 */
final class ProfileChecks {
  static final String FRAME_TYPE = "profile.frame.type";

  private ProfileChecks() {}

  /** Asserts {@link #conformanceViolations} is empty; {@code context} heads the failure. */
  static void assertConforms(ExportProfilesServiceRequest request, Supplier<String> context) {
    List<String> violations = conformanceViolations(request);
    assertThat(violations).as(() -> "conformance violations:\n  " + String.join("\n  ", violations)
        + "\n" + context.get()).isEmpty();
  }

  /** Every broken rule of the whole request, one line each; empty when all hold. */
  static List<String> conformanceViolations(ExportProfilesServiceRequest request) {
    List<String> v = dictionaryViolations(request);
    ProfilesDictionary d = request.getDictionary();
    noDuplicates(v, "mapping_table", d.getMappingTableList());
    noDuplicates(v, "location_table", d.getLocationTableList());
    noDuplicates(v, "function_table", d.getFunctionTableList());
    noDuplicates(v, "link_table", d.getLinkTableList());
    noDuplicates(v, "stack_table", d.getStackTableList());
    noDuplicates(v, "attribute_table", d.getAttributeTableList());
    attributeIndices(v, d);
    for (int i = 1; i < d.getLocationTableCount(); i++) {
      if (!hasKey(d, d.getLocationTable(i).getAttributeIndicesList(), FRAME_TYPE)) {
        v.add("location_table[" + i + "] has no " + FRAME_TYPE + " attribute");
      }
    }
    if (request.getResourceProfilesCount() == 0) {
      v.add("no resource_profiles");
    }
    for (int r = 0; r < request.getResourceProfilesCount(); r++) {
      ResourceProfiles resource = request.getResourceProfiles(r);
      resourceAttributes(v, "resource_profiles[" + r + "]", resource.getResource().getAttributesList());
      if (resource.getScopeProfilesCount() == 0) {
        v.add("resource_profiles[" + r + "] has no scope_profiles");
      }
      for (int s = 0; s < resource.getScopeProfilesCount(); s++) {
        ScopeProfiles scope = resource.getScopeProfiles(s);
        String where = "resource_profiles[" + r + "].scope_profiles[" + s + "]";
        if (scope.getProfilesCount() == 0) {
          v.add(where + " has no profiles");
        }
        for (int p = 0; p < scope.getProfilesCount(); p++) {
          profile(v, d, where + ".profiles[" + p + "]", scope.getProfiles(p));
        }
      }
    }
    return v;
  }

  private static <T> void noDuplicates(List<String> v, String table, List<T> entries) {
    Map<T, Integer> seen = new HashMap<>();
    for (int i = 0; i < entries.size(); i++) {
      Integer first = seen.putIfAbsent(entries.get(i), i);
      if (first != null) {
        v.add(table + "[" + i + "] duplicates " + table + "[" + first + "]");
      }
    }
  }

  /** Attribute lists: indices in range, keys and units in the string table, keys unique. */
  private static void attributeIndices(List<String> v, ProfilesDictionary d) {
    int strings = d.getStringTableCount();
    for (KeyValueAndUnit attribute : d.getAttributeTableList()) {
      inRange(v, "attribute key_strindex", attribute.getKeyStrindex(), strings);
      inRange(v, "attribute unit_strindex", attribute.getUnitStrindex(), strings);
    }
    for (int i = 0; i < d.getMappingTableCount(); i++) {
      inRange(v, "mapping filename_strindex", d.getMappingTable(i).getFilenameStrindex(), strings);
      attributeList(v, d, "mapping_table[" + i + "]", d.getMappingTable(i).getAttributeIndicesList());
    }
    for (int i = 0; i < d.getLocationTableCount(); i++) {
      attributeList(v, d, "location_table[" + i + "]", d.getLocationTable(i).getAttributeIndicesList());
    }
  }

  private static void attributeList(List<String> v, ProfilesDictionary d, String where, List<Integer> indices) {
    Set<Integer> keys = new HashSet<>();
    for (int index : indices) {
      if (index < 0 || index >= d.getAttributeTableCount()) {
        v.add(where + " attribute index " + index + " out of range [0, " + d.getAttributeTableCount() + ")");
      } else if (!keys.add(d.getAttributeTable(index).getKeyStrindex())) {
        v.add(where + " repeats attribute key " + quoted(string(d, d.getAttributeTable(index).getKeyStrindex())));
      }
    }
  }

  private static boolean hasKey(ProfilesDictionary d, List<Integer> indices, String key) {
    return indices.stream().anyMatch(i -> i >= 0 && i < d.getAttributeTableCount()
        && key.equals(string(d, d.getAttributeTable(i).getKeyStrindex())));
  }

  private static void resourceAttributes(List<String> v, String where, List<KeyValue> attributes) {
    Set<String> keys = new HashSet<>();
    for (KeyValue attribute : attributes) {
      if (!keys.add(attribute.getKey())) {
        v.add(where + " repeats resource attribute key " + quoted(attribute.getKey()));
      }
    }
    boolean serviceName = attributes.stream().anyMatch(a -> a.getKey().equals("service.name")
        && a.getValue().hasStringValue() && !a.getValue().getStringValue().isEmpty());
    if (!serviceName) {
      v.add(where + " has no plain string service.name resource attribute");
    }
  }

  /** Samples present, of one shape, timestamps inside the profile's window; attributes unique. */
  private static void profile(List<String> v, ProfilesDictionary d, String where, Profile profile) {
    attributeList(v, d, where, profile.getAttributeIndicesList());
    if (profile.getSamplesCount() == 0) {
      v.add(where + " has no samples (empty profiles are not sent)");
      return;
    }
    long start = profile.getTimeUnixNano();
    long end = start + profile.getDurationNano();
    Sample first = profile.getSamples(0);
    for (int i = 0; i < profile.getSamplesCount(); i++) {
      Sample sample = profile.getSamples(i);
      String at = where + ".samples[" + i + "]";
      attributeList(v, d, at, sample.getAttributeIndicesList());
      if (sample.getValuesCount() == 0 && sample.getTimestampsUnixNanoCount() == 0) {
        v.add(at + " has neither values nor timestamps");
      }
      if (sample.getValuesCount() > 0 && sample.getTimestampsUnixNanoCount() > 0
          && sample.getValuesCount() != sample.getTimestampsUnixNanoCount()) {
        v.add(at + " has " + sample.getValuesCount() + " values but " + sample.getTimestampsUnixNanoCount()
            + " timestamps");
      }
      if ((sample.getValuesCount() > 0) != (first.getValuesCount() > 0)
          || (sample.getTimestampsUnixNanoCount() > 0) != (first.getTimestampsUnixNanoCount() > 0)) {
        v.add(at + " differs in shape (values/timestamps present) from samples[0]");
      }
      for (long t : sample.getTimestampsUnixNanoList()) {
        if (t < start || t >= end) {
          v.add(at + " timestamp " + t + " outside [" + start + ", " + end + ")");
          break;
        }
      }
    }
  }

  private static String string(ProfilesDictionary d, int index) {
    return index >= 0 && index < d.getStringTableCount() ? d.getStringTable(index) : "";
  }

  /** Asserts {@link #dictionaryViolations} is empty; {@code context} heads the failure. */
  static void assertDictionaryBasics(ExportProfilesServiceRequest request, Supplier<String> context) {
    List<String> violations = dictionaryViolations(request);
    assertThat(violations).as(() -> "dictionary violations:\n  " + String.join("\n  ", violations)
        + "\n" + context.get()).isEmpty();
  }

  /** Every broken rule in {@code request}, one line each; empty when all hold. */
  static List<String> dictionaryViolations(ExportProfilesServiceRequest request) {
    ProfilesDictionary d = request.getDictionary();
    List<String> v = new ArrayList<>();
    if (d.getStringTableCount() == 0 || !d.getStringTable(0).isEmpty()) {
      v.add("string_table[0] must be \"\"");
    }
    zeroEntry(v, "mapping_table", d.getMappingTableList(), Mapping.getDefaultInstance());
    zeroEntry(v, "location_table", d.getLocationTableList(), Location.getDefaultInstance());
    zeroEntry(v, "function_table", d.getFunctionTableList(), Function.getDefaultInstance());
    zeroEntry(v, "link_table", d.getLinkTableList(), Link.getDefaultInstance());
    zeroEntry(v, "stack_table", d.getStackTableList(), Stack.getDefaultInstance());
    zeroEntry(v, "attribute_table", d.getAttributeTableList(), KeyValueAndUnit.getDefaultInstance());
    Set<String> seen = new HashSet<>();
    for (String s : d.getStringTableList()) {
      if (!seen.add(s)) {
        v.add("duplicate string " + quoted(s));
      }
    }
    for (int i = 1; i < d.getLinkTableCount(); i++) {
      Link link = d.getLinkTable(i);
      if (link.getTraceId().size() != 16 || link.getSpanId().size() != 8) {
        v.add("link_table[" + i + "]: trace id " + link.getTraceId().size() + " bytes, span id "
            + link.getSpanId().size() + " bytes (want 16 and 8)");
      }
    }
    indicesInRange(v, request);
    return v;
  }

  private static void indicesInRange(List<String> v, ExportProfilesServiceRequest request) {
    ProfilesDictionary d = request.getDictionary();
    int strings = d.getStringTableCount();
    for (Function f : d.getFunctionTableList()) {
      inRange(v, "function name_strindex", f.getNameStrindex(), strings);
      inRange(v, "function system_name_strindex", f.getSystemNameStrindex(), strings);
      inRange(v, "function filename_strindex", f.getFilenameStrindex(), strings);
    }
    for (Location location : d.getLocationTableList()) {
      inRange(v, "location mapping_index", location.getMappingIndex(), d.getMappingTableCount());
      for (Line line : location.getLinesList()) {
        inRange(v, "line function_index", line.getFunctionIndex(), d.getFunctionTableCount());
      }
    }
    for (Stack stack : d.getStackTableList()) {
      stack.getLocationIndicesList().forEach(i -> inRange(v, "stack location index", i, d.getLocationTableCount()));
    }
    for (ResourceProfiles resource : request.getResourceProfilesList()) {
      for (ScopeProfiles scope : resource.getScopeProfilesList()) {
        for (Profile profile : scope.getProfilesList()) {
          inRange(v, "sample_type type_strindex", profile.getSampleType().getTypeStrindex(), strings);
          inRange(v, "period_type type_strindex", profile.getPeriodType().getTypeStrindex(), strings);
          for (Sample sample : profile.getSamplesList()) {
            inRange(v, "sample stack_index", sample.getStackIndex(), d.getStackTableCount());
            inRange(v, "sample link_index", sample.getLinkIndex(), d.getLinkTableCount());
            sample.getAttributeIndicesList().forEach(i -> inRange(v, "sample attribute index", i, d.getAttributeTableCount()));
          }
        }
      }
    }
  }

  private static <T> void zeroEntry(List<String> v, String table, List<T> entries, T zero) {
    if (entries.isEmpty() || !entries.get(0).equals(zero)) {
      v.add(table + "[0] must be present and the zero value, is "
          + (entries.isEmpty() ? "missing" : quoted(entries.get(0).toString())));
    }
  }

  private static void inRange(List<String> v, String what, int index, int size) {
    if (index < 0 || index >= size) {
      v.add(what + " " + index + " out of range [0, " + size + ")");
    }
  }

  private static String quoted(String s) {
    return "\"" + s.replace("\n", " ") + "\"";
  }
}
