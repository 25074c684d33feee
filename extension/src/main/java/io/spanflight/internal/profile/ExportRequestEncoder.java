package io.spanflight.internal.profile;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.resources.Resource;
import io.spanflight.internal.format.ProtoWriter;
import io.spanflight.internal.registry.SpanLink;
import java.util.List;
import java.util.UUID;

/**
 * Encodes a {@link ProfileInterval} as an OTLP {@code ExportProfilesServiceRequest}
 * (opentelemetry-proto 1.11.0, {@code profiles/v1development}) by hand, so the drop-in jar needs
 * no protobuf runtime. Field numbers are those of the 1.11.0 descriptors; the generated classes
 * check this encoder in tests (round trip and equal size).
 *
 * <p>Not API: internal to Spanflight.
 */
public final class ExportRequestEncoder {
  public static final String SCOPE_NAME = "io.spanflight";

  private final Resource resource;
  private final String scopeVersion;

  public ExportRequestEncoder(Resource resource, String scopeVersion) {
    this.resource = resource;
    this.scopeVersion = scopeVersion;
  }

  /** An encoder of the same requests as OTLP/JSON (same resource and scope). */
  public OtlpJsonEncoder json() {
    return new OtlpJsonEncoder(resource, scopeVersion);
  }

  /** The request bytes; the profile covers its samples and at least [start, end). */
  public byte[] encode(ProfileInterval interval, long endEpochNanos) {
    return encode(interval, endEpochNanos, null);
  }

  /**
   * As {@link #encode(ProfileInterval, long)}, with {@code rawJfr} (a JFR recording of the
   * interval, or null) attached to the first profile as {@code original_payload}, format
   * {@code jfr}.
   */
  public byte[] encode(ProfileInterval interval, long endEpochNanos, byte[] rawJfr) {
    DictionaryBuilder dictionary = interval.dictionary;
    byte[][] payload = {rawJfr};
    ProtoWriter w = new ProtoWriter();
    w.begin(1); // resource_profiles
    writeResource(w, 1, resource);
    w.begin(2); // scope_profiles
    w.begin(1).stringField(1, SCOPE_NAME).stringField(2, scopeVersion).end(); // scope
    interval.tables.forEach(
        (type, table) -> {
          writeProfile(w, dictionary, type, table, interval.startEpochNanos, endEpochNanos, payload[0]);
          payload[0] = null; // the first profile carries it
        });
    w.end();
    w.end();
    writeDictionary(w, dictionary);
    return w.toByteArray();
  }

  /** A {@code Resource} message as field {@code field}: its attributes as plain KeyValues. */
  static void writeResource(ProtoWriter w, int field, Resource resource) {
    w.begin(field); // resource
    resource
        .getAttributes()
        .forEach(
            (key, value) -> {
              w.begin(1).stringField(1, key.getKey()); // attributes: KeyValue
              w.begin(2);
              writeAnyValue(w, key, value);
              w.end().end();
            });
    w.end();
  }

  /** A KeyValue as field {@code field} whose value is an array of strings. */
  static void writeStringArray(ProtoWriter w, int field, String key, List<String> values) {
    w.begin(field).stringField(1, key);
    w.begin(2); // value: AnyValue
    w.begin(5); // array_value
    for (String value : values) {
      w.begin(1).repeatedString(1, value).end();
    }
    w.end().end().end();
  }

  /** A KeyValue as field {@code field} with a string value. */
  static void writeString(ProtoWriter w, int field, String key, String value) {
    w.begin(field).stringField(1, key);
    w.begin(2).repeatedString(1, value).end();
    w.end();
  }

  /** The body of an AnyValue: 1 string, 2 bool, 3 int, 4 double, 5 array. */
  private static void writeAnyValue(ProtoWriter w, AttributeKey<?> key, Object value) {
    switch (key.getType()) {
      case BOOLEAN:
        w.oneofVarint(2, ((Boolean) value) ? 1 : 0);
        break;
      case LONG:
        w.oneofVarint(3, (Long) value);
        break;
      case DOUBLE:
        w.oneofDouble(4, (Double) value);
        break;
      case STRING_ARRAY:
      case BOOLEAN_ARRAY:
      case LONG_ARRAY:
      case DOUBLE_ARRAY:
        w.begin(5); // array_value
        for (Object element : (List<?>) value) {
          w.begin(1);
          writeScalar(w, element);
          w.end();
        }
        w.end();
        break;
      default:
        w.repeatedString(1, String.valueOf(value));
    }
  }

  private static void writeScalar(ProtoWriter w, Object element) {
    if (element instanceof Boolean) {
      w.oneofVarint(2, ((Boolean) element) ? 1 : 0);
    } else if (element instanceof Long) {
      w.oneofVarint(3, (Long) element);
    } else if (element instanceof Double) {
      w.oneofDouble(4, (Double) element);
    } else {
      w.repeatedString(1, String.valueOf(element));
    }
  }

  private static void writeProfile(
      ProtoWriter w,
      DictionaryBuilder d,
      SampleType type,
      SampleTable table,
      long startEpochNanos,
      long endEpochNanos,
      byte[] rawJfr) {
    long start = Math.min(startEpochNanos, table.minTimestamp());
    long end = Math.max(endEpochNanos, table.maxTimestamp() + 1);

    w.begin(2); // profiles
    w.begin(1).varintField(1, d.string(type.type)).varintField(2, d.string(type.unit)).end();
    for (SampleTable.Group group : table.groups()) {
      int[] attributes = d.attributeSets.get(group.attributeSet);
      w.begin(2) // samples
          .varintField(1, group.stack)
          .packedVarints(2, attributes, attributes.length)
          .varintField(3, group.link)
          .packedVarints(4, group.values, group.count)
          .packedFixed64(5, group.timestamps, group.count)
          .end();
    }
    w.fixed64Field(3, start);
    w.varintField(4, end - start);
    if (!type.periodType.isEmpty()) {
      w.begin(5).varintField(1, d.string(type.periodType)).varintField(2, d.string(type.periodUnit)).end();
    }
    w.varintField(6, type.period);
    w.bytesField(7, profileId());
    if (rawJfr != null) {
      w.stringField(9, "jfr").bytesField(10, rawJfr); // original_payload_format, original_payload
    }
    w.end();
  }

  private static void writeDictionary(ProtoWriter w, DictionaryBuilder d) {
    w.begin(2); // dictionary
    w.emptyMessage(1); // mapping_table: only the zero mapping
    int[] frameType = {DictionaryBuilder.FRAME_TYPE_ATTRIBUTE};
    w.emptyMessage(2);
    for (int i = 1; i < d.locations.size(); i++) {
      long location = d.locations.get(i);
      w.begin(2); // location_table
      w.begin(3).varintField(1, location >>> 32).varintField(2, (int) location).end(); // lines
      w.packedVarints(4, frameType, 1);
      w.end();
    }
    w.emptyMessage(3);
    for (int i = 1; i < d.functions.size(); i++) {
      w.begin(3).varintField(1, d.functions.name(i)).varintField(2, d.functions.systemName(i));
      w.varintField(3, d.functions.fileName(i)).end();
    }
    w.emptyMessage(4);
    for (int i = 1; i < d.links.size(); i++) {
      SpanLink link = d.links.get(i);
      w.begin(4).bytesField(1, link.traceIdBytes()).bytesField(2, link.spanIdBytes()).end();
    }
    for (String s : d.strings) {
      w.repeatedString(5, s);
    }
    w.emptyMessage(6); // attribute_table: KeyValueAndUnit, string values
    for (int i = 1; i < d.attributes.size(); i++) {
      long attribute = d.attributes.get(i);
      w.begin(6).varintField(1, (int) (attribute >>> 32));
      w.begin(2).repeatedString(1, d.strings.get((int) attribute)).end();
      w.end();
    }
    w.emptyMessage(7);
    int[] stack = new int[64];
    for (int i = 1; i < d.stacks.size(); i++) {
      stack = d.stacks.copy(i, stack);
      w.begin(7).packedVarints(1, stack, d.stacks.length(i)).end();
    }
    w.end();
  }

  static byte[] profileId() {
    UUID id = UUID.randomUUID();
    byte[] bytes = new byte[16];
    for (int i = 0; i < 8; i++) {
      bytes[i] = (byte) (id.getMostSignificantBits() >>> (56 - 8 * i));
      bytes[8 + i] = (byte) (id.getLeastSignificantBits() >>> (56 - 8 * i));
    }
    return bytes;
  }
}
