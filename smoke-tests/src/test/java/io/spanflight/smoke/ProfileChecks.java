package io.spanflight.smoke;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
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
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Checks every profiles request must pass, whatever the test: the shared dictionary's zero
 * entries, no duplicate strings, well-formed link ids, and every index in range.
 */
final class ProfileChecks {
  private ProfileChecks() {}

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
