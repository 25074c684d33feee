package io.spanflight.internal.profile;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.resources.Resource;
import io.spanflight.internal.format.Hex;
import io.spanflight.internal.format.JsonWriter;
import io.spanflight.internal.registry.SpanLink;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Encodes a {@link ProfileInterval} as the OTLP/JSON form of the same {@code
 * ExportProfilesServiceRequest} that {@link ExportRequestEncoder} writes in binary: the protobuf
 * JSON mapping with lowerCamelCase names, 64-bit integers as decimal strings, and trace, span and
 * profile ids as lower-case hex (OTLP/JSON's exception to base64). Fields at their default value
 * are left out, as protobuf's JSON printer does.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class OtlpJsonEncoder {
  private final Resource resource;
  private final String scopeVersion;

  public OtlpJsonEncoder(Resource resource, String scopeVersion) {
    this.resource = resource;
    this.scopeVersion = scopeVersion;
  }

  /** The request as UTF-8 JSON; the profile covers its samples and at least [start, end). */
  public byte[] encode(ProfileInterval interval, long endEpochNanos) {
    DictionaryBuilder d = interval.dictionary;
    StringBuilder json = new StringBuilder(8192);
    JsonWriter w = JsonWriter.to(json).beginObject();
    w.name("resourceProfiles").beginArray().beginObject();
    writeResource(w);
    w.name("scopeProfiles").beginArray().beginObject();
    w.name("scope").beginObject().name("name").value(ExportRequestEncoder.SCOPE_NAME);
    w.name("version").value(scopeVersion).endObject();
    w.name("profiles").beginArray();
    interval.tables.forEach(
        (type, table) -> writeProfile(w, d, type, table, interval.startEpochNanos, endEpochNanos));
    w.endArray().endObject().endArray().endObject().endArray();
    writeDictionary(w, d);
    w.endObject();
    return json.toString().getBytes(StandardCharsets.UTF_8);
  }

  private void writeResource(JsonWriter w) {
    w.name("resource").beginObject().name("attributes").beginArray();
    resource
        .getAttributes()
        .forEach(
            (key, value) -> {
              w.beginObject().name("key").value(key.getKey()).name("value");
              writeAnyValue(w, key, value);
              w.endObject();
            });
    w.endArray().endObject();
  }

  private static void writeAnyValue(JsonWriter w, AttributeKey<?> key, Object value) {
    switch (key.getType()) {
      case STRING_ARRAY:
      case BOOLEAN_ARRAY:
      case LONG_ARRAY:
      case DOUBLE_ARRAY:
        w.beginObject().name("arrayValue").beginObject().name("values").beginArray();
        for (Object element : (List<?>) value) {
          writeScalar(w, element);
        }
        w.endArray().endObject().endObject();
        break;
      default:
        writeScalar(w, value);
    }
  }

  private static void writeScalar(JsonWriter w, Object value) {
    w.beginObject();
    if (value instanceof Boolean) {
      w.name("boolValue").value((boolean) (Boolean) value);
    } else if (value instanceof Long) {
      w.name("intValue").value(Long.toString((Long) value));
    } else if (value instanceof Double) {
      w.name("doubleValue").value((double) (Double) value);
    } else {
      w.name("stringValue").value(String.valueOf(value));
    }
    w.endObject();
  }

  private static void writeProfile(
      JsonWriter w, DictionaryBuilder d, SampleType type, SampleTable table, long startEpochNanos, long endEpochNanos) {
    long start = Math.min(startEpochNanos, table.minTimestamp());
    long end = Math.max(endEpochNanos, table.maxTimestamp() + 1);
    w.beginObject().name("sampleType");
    valueType(w, d.string(type.type), d.string(type.unit));
    w.name("samples").beginArray();
    for (SampleTable.Group group : table.groups()) {
      w.beginObject();
      if (group.stack != 0) {
        w.name("stackIndex").value(group.stack);
      }
      int[] attributes = d.attributeSets.get(group.attributeSet);
      if (attributes.length > 0) {
        w.name("attributeIndices").beginArray();
        for (int attribute : attributes) {
          w.value(attribute);
        }
        w.endArray();
      }
      if (group.link != 0) {
        w.name("linkIndex").value(group.link);
      }
      w.name("values").beginArray();
      for (int i = 0; i < group.count; i++) {
        w.value(Long.toString(group.values[i]));
      }
      w.endArray().name("timestampsUnixNano").beginArray();
      for (int i = 0; i < group.count; i++) {
        w.value(Long.toUnsignedString(group.timestamps[i]));
      }
      w.endArray().endObject();
    }
    w.endArray();
    w.name("timeUnixNano").value(Long.toUnsignedString(start));
    w.name("durationNano").value(Long.toUnsignedString(end - start));
    if (!type.periodType.isEmpty()) {
      w.name("periodType");
      valueType(w, d.string(type.periodType), d.string(type.periodUnit));
    }
    if (type.period != 0) {
      w.name("period").value(Long.toString(type.period));
    }
    w.name("profileId").value(Hex.of(ExportRequestEncoder.profileId())).endObject();
  }

  private static void valueType(JsonWriter w, int type, int unit) {
    w.beginObject();
    if (type != 0) {
      w.name("typeStrindex").value(type);
    }
    if (unit != 0) {
      w.name("unitStrindex").value(unit);
    }
    w.endObject();
  }

  private static void writeDictionary(JsonWriter w, DictionaryBuilder d) {
    w.name("dictionary").beginObject();
    w.name("mappingTable").beginArray().beginObject().endObject().endArray();
    w.name("locationTable").beginArray().beginObject().endObject();
    for (int i = 1; i < d.locations.size(); i++) {
      long location = d.locations.get(i);
      w.beginObject().name("lines").beginArray().beginObject();
      if ((location >>> 32) != 0) {
        w.name("functionIndex").value(location >>> 32);
      }
      if ((int) location != 0) {
        w.name("line").value(Integer.toString((int) location));
      }
      w.endObject().endArray();
      w.name("attributeIndices").beginArray().value(DictionaryBuilder.FRAME_TYPE_ATTRIBUTE).endArray();
      w.endObject();
    }
    w.endArray().name("functionTable").beginArray().beginObject().endObject();
    for (int i = 1; i < d.functions.size(); i++) {
      w.beginObject().name("nameStrindex").value(d.functions.name(i));
      w.name("systemNameStrindex").value(d.functions.systemName(i));
      w.name("filenameStrindex").value(d.functions.fileName(i)).endObject();
    }
    w.endArray().name("linkTable").beginArray().beginObject().endObject();
    for (int i = 1; i < d.links.size(); i++) {
      SpanLink link = d.links.get(i);
      w.beginObject().name("traceId").value(link.traceIdHex()).name("spanId").value(link.spanIdHex());
      w.endObject();
    }
    w.endArray().name("stringTable").beginArray();
    for (String s : d.strings) {
      w.value(s);
    }
    w.endArray().name("attributeTable").beginArray().beginObject().endObject();
    for (int i = 1; i < d.attributes.size(); i++) {
      long attribute = d.attributes.get(i);
      w.beginObject().name("keyStrindex").value((int) (attribute >>> 32));
      w.name("value").beginObject().name("stringValue").value(d.strings.get((int) attribute)).endObject();
      w.endObject();
    }
    w.endArray();
    w.name("stackTable").beginArray().beginObject().endObject();
    for (int i = 1; i < d.stacks.size(); i++) {
      w.beginObject().name("locationIndices").beginArray();
      for (int j = 0; j < d.stacks.length(i); j++) {
        w.value(d.stacks.location(i, j));
      }
      w.endArray().endObject();
    }
    w.endArray().endObject();
  }
}
