package io.spanflight.internal.profile;

import io.spanflight.internal.format.ProtoWriter;
import io.spanflight.internal.registry.SpanLink;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Encodes each sample type of a {@link ProfileInterval} as one Google pprof {@code Profile}
 * ({@code perftools.profiles}, github.com/google/pprof proto/profile.proto), uncompressed; the
 * caller gzips it as pprof files are stored. Hand-written like {@link ExportRequestEncoder}, so the
 * jar needs no protobuf runtime.
 *
 * <p>Each profile is self-contained: its own string table ({@code ""} first), and functions and
 * locations with ids from 1, holding only what its samples use. A (stack, span) group of the
 * interval becomes one sample whose value is the sum of the group's values; a sample taken inside
 * a span carries the labels {@code trace_id} and {@code span_id} (lower-case hex), and one label
 * per context attribute (such as {@code http.route}). There are no
 * mappings (JVM frames have none) and no thread labels (the interval does not keep thread names).
 *
 * <p>Not API: internal to Spanflight.
 */
public final class PprofEncoder {
  public static final String TRACE_ID_LABEL = "trace_id";
  public static final String SPAN_ID_LABEL = "span_id";

  private PprofEncoder() {}

  /**
   * One encoded profile per sample type, keyed by a file-name-safe type name that is unique within
   * the interval ({@code samples}, {@code alloc_space}, ...).
   */
  public static Map<String, byte[]> encode(ProfileInterval interval, long endEpochNanos) {
    Map<String, byte[]> profiles = new LinkedHashMap<>();
    interval.tables.forEach(
        (type, table) -> {
          String name = fileSafe(type.type);
          String unique = name;
          for (int n = 2; profiles.containsKey(unique); n++) {
            unique = name + "_" + n;
          }
          profiles.put(
              unique, encode(interval.dictionary, type, table, interval.startEpochNanos, endEpochNanos));
        });
    return profiles;
  }

  static byte[] encode(
      DictionaryBuilder d, SampleType type, SampleTable table, long startEpochNanos, long endEpochNanos) {
    return new Profile(d).write(type, table, startEpochNanos, endEpochNanos);
  }

  private static String fileSafe(String name) {
    String safe = name.replaceAll("[^A-Za-z0-9_.-]", "_");
    return safe.isEmpty() ? "profile" : safe;
  }

  /** The tables of one pprof profile, filled while its samples are written. */
  private static final class Profile {
    private final DictionaryBuilder d;
    private final List<String> strings = new ArrayList<>();
    private final Map<String, Integer> stringIds = new HashMap<>();
    /** Dictionary function index to pprof function id (0: not yet used). */
    private final int[] functionIds;
    /** Dictionary location index to pprof location id (0: not yet used). */
    private final int[] locationIds;
    private final List<Integer> functionOrder = new ArrayList<>();
    private final List<Integer> locationOrder = new ArrayList<>();

    Profile(DictionaryBuilder d) {
      this.d = d;
      this.functionIds = new int[d.functions.size()];
      this.locationIds = new int[d.locations.size()];
      string("");
    }

    byte[] write(SampleType type, SampleTable table, long startEpochNanos, long endEpochNanos) {
      long start = Math.min(startEpochNanos, table.minTimestamp());
      long end = Math.max(endEpochNanos, table.maxTimestamp() + 1);
      ProtoWriter w = new ProtoWriter();
      w.begin(1).varintField(1, string(type.type)).varintField(2, string(type.unit)).end(); // sample_type
      long[] locations = new long[16];
      long[] value = new long[1];
      for (SampleTable.Group group : table.groups()) {
        int frames = d.stacks.length(group.stack);
        if (locations.length < frames) {
          locations = new long[frames];
        }
        for (int i = 0; i < frames; i++) {
          locations[i] = locationId(d.stacks.location(group.stack, i));
        }
        value[0] = sum(group);
        w.begin(2); // sample
        w.packedVarints(1, locations, frames); // location_id, leaf first
        w.packedVarints(2, value, 1); // value: one per sample_type, written even when zero
        if (group.link != 0) {
          SpanLink link = d.links.get(group.link);
          label(w, TRACE_ID_LABEL, link.traceIdHex());
          label(w, SPAN_ID_LABEL, link.spanIdHex());
        }
        for (int attribute : d.attributeSets.get(group.attributeSet)) {
          long entry = d.attributes.get(attribute);
          label(w, d.strings.get((int) (entry >>> 32)), d.strings.get((int) entry));
        }
        w.end();
      }
      for (int index : locationOrder) {
        long location = d.locations.get(index);
        w.begin(4).varintField(1, locationIds[index]); // location: id
        w.begin(4).varintField(1, functionId((int) (location >>> 32))).varintField(2, (int) location).end();
        w.end();
      }
      for (int index : functionOrder) {
        w.begin(5)
            .varintField(1, functionIds[index])
            .varintField(2, string(d.strings.get(d.functions.name(index))))
            .varintField(3, string(d.strings.get(d.functions.systemName(index))))
            .varintField(4, string(d.strings.get(d.functions.fileName(index))))
            .end();
      }
      w.varintField(9, start); // time_nanos
      w.varintField(10, end - start); // duration_nanos
      if (!type.periodType.isEmpty()) {
        w.begin(11).varintField(1, string(type.periodType)).varintField(2, string(type.periodUnit)).end();
      }
      w.varintField(12, type.period);
      // The string table comes last, once every field above has added its strings (decoders
      // accept fields in any order).
      for (String s : strings) {
        w.repeatedString(6, s);
      }
      return w.toByteArray();
    }

    private void label(ProtoWriter w, String key, String value) {
      w.begin(3).varintField(1, string(key)).varintField(2, string(value)).end();
    }

    private int locationId(int index) {
      if (locationIds[index] == 0) {
        locationOrder.add(index);
        locationIds[index] = locationOrder.size();
        functionId((int) (d.locations.get(index) >>> 32)); // functions in first-use order too
      }
      return locationIds[index];
    }

    private int functionId(int index) {
      if (functionIds[index] == 0) {
        functionOrder.add(index);
        functionIds[index] = functionOrder.size();
      }
      return functionIds[index];
    }

    private int string(String value) {
      Integer id = stringIds.get(value);
      if (id == null) {
        id = strings.size();
        strings.add(value);
        stringIds.put(value, id);
      }
      return id;
    }

    private static long sum(SampleTable.Group group) {
      long total = 0;
      for (int i = 0; i < group.count; i++) {
        total += group.values[i];
      }
      return total;
    }
  }
}
