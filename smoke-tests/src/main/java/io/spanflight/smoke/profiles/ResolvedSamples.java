package io.spanflight.smoke.profiles;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.opentelemetry.proto.profiles.v1development.Profile;
import io.opentelemetry.proto.profiles.v1development.ProfilesDictionary;
import io.opentelemetry.proto.profiles.v1development.ResourceProfiles;
import io.opentelemetry.proto.profiles.v1development.Sample;
import io.opentelemetry.proto.profiles.v1development.ScopeProfiles;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * Every sample of some profiles requests as one line of text that holds every field set on the
 * way from the request down to the sample (resource, scope, profile, sample), with each reference
 * into the request's dictionary replaced by what it refers to, recursively: a {@code *_strindex}
 * by its string, a {@code stack_index} by the stack's locations, each location's mapping and lines,
 * each line's function with its names and file, a {@code link_index} by its trace and span ids, an
 * {@code attribute_indices} by the keys, values and units. Two sets of requests that carry the same
 * data give the same lines, however their dictionaries are laid out and however the samples are
 * spread over requests, so a hop can be compared with what came out of it.
 *
 * <p>The resolution is driven by field names through the protobuf descriptors, so a field the
 * schema gains is compared without a change here.
 */
public final class ResolvedSamples {
  private static final HexFormat HEX = HexFormat.of();
  private static final Map<String, BiFunction<ProfilesDictionary, Integer, Message>> TABLES = Map.of(
      "stack_index", ProfilesDictionary::getStackTable,
      "location_indices", ProfilesDictionary::getLocationTable,
      "mapping_index", ProfilesDictionary::getMappingTable,
      "function_index", ProfilesDictionary::getFunctionTable,
      "link_index", ProfilesDictionary::getLinkTable,
      "attribute_indices", ProfilesDictionary::getAttributeTable);

  private ResolvedSamples() {}

  /** One line per sample of every profile of every request, in the order they came. */
  public static List<String> of(List<ExportProfilesServiceRequest> requests) {
    List<String> lines = new ArrayList<>();
    for (ExportProfilesServiceRequest request : requests) {
      ProfilesDictionary dictionary = request.getDictionary();
      for (ResourceProfiles resource : request.getResourceProfilesList()) {
        String resourceText = resolve(resource.toBuilder().clearScopeProfiles().build(), dictionary);
        for (ScopeProfiles scope : resource.getScopeProfilesList()) {
          String scopeText = resolve(scope.toBuilder().clearProfiles().build(), dictionary);
          for (Profile profile : scope.getProfilesList()) {
            String profileText = resolve(profile.toBuilder().clearSamples().build(), dictionary);
            for (Sample sample : profile.getSamplesList()) {
              lines.add("resource{" + resourceText + "} scope{" + scopeText + "} profile{" + profileText
                  + "} sample{" + resolve(sample, dictionary) + "}");
            }
          }
        }
      }
    }
    return lines;
  }

  /**
   * The fields set in {@code message}, ordered by name, with dictionary references resolved. A
   * string given by reference is named as the field that holds it inline: since proto 1.10 a
   * {@code KeyValue}'s {@code key} and an {@code AnyValue}'s {@code string_value} may come as
   * {@code key_strindex} and {@code string_value_strindex} instead (the Collector sends resource
   * attributes that way), and both mean the same.
   */
  static String resolve(Message message, ProfilesDictionary dictionary) {
    List<String> fields = new ArrayList<>();
    for (Map.Entry<FieldDescriptor, Object> field : message.getAllFields().entrySet()) {
      String name = field.getKey().getName();
      List<?> values = field.getKey().isRepeated() ? (List<?>) field.getValue() : List.of(field.getValue());
      for (Object value : values) {
        String rendered = render(name, value, dictionary);
        if (!rendered.equals("{}") || field.getKey().isRepeated()) { // an empty message is no message:
          fields.add(name.replaceFirst("_strindex$", "") + '=' + rendered); // pdata writes them all
        }
      }
    }
    // by name only, and List.sort is stable: a repeated field's values keep their order
    fields.sort(Comparator.comparing(field -> field.substring(0, field.indexOf('='))));
    return String.join(" ", fields);
  }

  private static String render(String name, Object value, ProfilesDictionary dictionary) {
    if (name.endsWith("_strindex")) {
      int index = (Integer) value;
      require(index < dictionary.getStringTableCount(), name, index);
      return dictionary.getStringTable(index);
    }
    BiFunction<ProfilesDictionary, Integer, Message> table = TABLES.get(name);
    if (table != null) {
      int index = (Integer) value;
      try {
        return "{" + resolve(table.apply(dictionary, index), dictionary) + "}";
      } catch (IndexOutOfBoundsException e) {
        throw new IllegalArgumentException(name + " " + index + " is past its dictionary table", e);
      }
    }
    if (value instanceof Message nested) {
      return "{" + resolve(nested, dictionary) + "}";
    }
    if (value instanceof ByteString bytes) {
      return HEX.formatHex(bytes.toByteArray());
    }
    return String.valueOf(value);
  }

  private static void require(boolean valid, String name, int index) {
    if (!valid) {
      throw new IllegalArgumentException(name + " " + index + " is past the string table");
    }
  }
}
