package io.spanflight.internal.report;

import io.spanflight.internal.format.MalformedProtoException;
import io.spanflight.internal.format.ProtoReader;
import io.spanflight.internal.tables.LongList;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Decodes a serialized {@code ExportProfilesServiceRequest} (OTLP profiles {@code v1development},
 * field numbers of opentelemetry-proto 1.11.0) into a {@link ProfilesRequest}. Unknown fields are
 * skipped. The dictionary comes after the profiles on the wire, so profiles keep string indexes
 * until the end, when every index is resolved and checked against its table.
 *
 * <p>Not API: internal to Spanflight.
 */
final class RequestDecoder {

  /** A profile as read, before its string indexes are resolved. */
  private static final class RawProfile {
    int type;
    int unit;
    int periodType;
    int periodUnit;
    long period;
    long time;
    long duration;
    final LongList stacks = new LongList();
    final LongList links = new LongList();
    final List<int[]> attributes = new ArrayList<>();
    final LongList values = new LongList();
    final LongList firstTimestamps = new LongList();
    final LongList events = new LongList();
  }

  private static final int[] NONE = new int[0];

  private RequestDecoder() {}

  /**
   * Decodes a whole request. For any bytes this returns a request whose indexes are all within
   * their tables, or throws {@link MalformedProfileException}; time and memory are linear in
   * {@code bytes.length} (see {@link ReportLimits} for the bounds that keep them so).
   */
  static ProfilesRequest decode(byte[] bytes) throws MalformedProfileException {
    try {
      return read(bytes);
    } catch (MalformedProfileException e) {
      throw e;
    } catch (MalformedProtoException e) { // the reader's: bad wire encoding, same message
      throw new MalformedProfileException(e.getMessage());
    }
  }

  private static ProfilesRequest read(byte[] bytes) throws MalformedProtoException {
    if (bytes.length == 0) {
      throw new MalformedProfileException("empty file");
    }
    ProtoReader request = new ProtoReader(bytes);
    Map<String, String> resource = new LinkedHashMap<>();
    List<RawProfile> raw = new ArrayList<>();
    ProfilesRequest.Dictionary dictionary = null;
    boolean resourceProfiles = false;
    long frameBudget = ReportLimits.frameBudget(bytes.length);
    while (request.hasMore()) {
      int field = request.nextField();
      if (field == 1) { // resource_profiles
        resourceProfiles = true;
        readResourceProfiles(request.readMessage(), resource, raw);
      } else if (field == 2) { // dictionary
        dictionary = DictionaryDecoder.decode(request.readMessage(), frameBudget);
      } else {
        request.skipField();
      }
    }
    if (dictionary == null) {
      if (!raw.isEmpty()) {
        throw new MalformedProfileException("profiles without a dictionary");
      }
      if (!resourceProfiles) {
        throw new MalformedProfileException("neither resource_profiles nor a dictionary");
      }
      dictionary = DictionaryDecoder.decode(new ProtoReader(new byte[0]), frameBudget);
    }
    List<ProfilesRequest.Profile> profiles = new ArrayList<>(raw.size());
    for (RawProfile profile : raw) {
      profiles.add(resolve(profile, dictionary));
    }
    return new ProfilesRequest(resource, profiles, dictionary);
  }

  private static void readResourceProfiles(ProtoReader in, Map<String, String> resource, List<RawProfile> out)
      throws MalformedProtoException {
    while (in.hasMore()) {
      int field = in.nextField();
      if (field == 1) { // resource
        ProtoReader r = in.readMessage();
        while (r.hasMore()) {
          if (r.nextField() == 1) { // attributes: KeyValue
            readKeyValue(r.readMessage(), resource);
          } else {
            r.skipField();
          }
        }
      } else if (field == 2) { // scope_profiles
        ProtoReader scope = in.readMessage();
        while (scope.hasMore()) {
          if (scope.nextField() == 2) { // profiles
            out.add(readProfile(scope.readMessage()));
          } else {
            scope.skipField();
          }
        }
      } else {
        in.skipField();
      }
    }
  }

  private static void readKeyValue(ProtoReader kv, Map<String, String> out) throws MalformedProtoException {
    String key = "";
    String value = "";
    while (kv.hasMore()) {
      int field = kv.nextField();
      if (field == 1) {
        key = kv.readString();
      } else if (field == 2) {
        value = AnyValues.text(kv.readMessage(), null);
      } else {
        kv.skipField();
      }
    }
    out.put(key, value);
  }

  private static RawProfile readProfile(ProtoReader in) throws MalformedProtoException {
    RawProfile p = new RawProfile();
    LongList values = new LongList();
    LongList timestamps = new LongList();
    LongList attributes = new LongList();
    while (in.hasMore()) {
      switch (in.nextField()) {
        case 1: { // sample_type
          int[] valueType = readValueType(in.readMessage());
          p.type = valueType[0];
          p.unit = valueType[1];
          break;
        }
        case 2: { // samples
          ProtoReader s = in.readMessage();
          int stack = 0;
          int link = 0;
          values.clear();
          timestamps.clear();
          attributes.clear();
          while (s.hasMore()) {
            switch (s.nextField()) {
              case 1: stack = s.readInt(); break;
              case 2: s.readVarints(attributes); break;
              case 3: link = s.readInt(); break;
              case 4: s.readVarints(values); break;
              case 5: s.readFixed64s(timestamps); break;
              default: s.skipField();
            }
          }
          p.stacks.add(stack);
          p.links.add(link);
          p.attributes.add(attributes.size() == 0 ? NONE : attributes.toIntArray());
          p.values.add(values.size() > 0 ? values.sum() : Math.max(1, timestamps.size()));
          p.firstTimestamps.add(min(timestamps));
          p.events.add(Math.max(1, Math.max(values.size(), timestamps.size())));
          break;
        }
        case 3: p.time = in.readFixed64(); break;
        case 4: p.duration = in.readVarint(); break;
        case 5: {
          int[] valueType = readValueType(in.readMessage());
          p.periodType = valueType[0];
          p.periodUnit = valueType[1];
          break;
        }
        case 6: p.period = in.readVarint(); break;
        default: in.skipField();
      }
    }
    return p;
  }

  private static long min(LongList timestamps) {
    if (timestamps.size() == 0) {
      return 0;
    }
    long min = Long.MAX_VALUE;
    for (int i = 0; i < timestamps.size(); i++) {
      min = Math.min(min, timestamps.get(i));
    }
    return min;
  }

  private static int[] readValueType(ProtoReader in) throws MalformedProtoException {
    int[] typeAndUnit = new int[2];
    while (in.hasMore()) {
      int field = in.nextField();
      if (field == 1 || field == 2) {
        typeAndUnit[field - 1] = in.readInt();
      } else {
        in.skipField();
      }
    }
    return typeAndUnit;
  }

  private static ProfilesRequest.Profile resolve(RawProfile p, ProfilesRequest.Dictionary d)
      throws MalformedProfileException {
    int n = p.stacks.size();
    int[] stacks = p.stacks.toIntArray();
    int[] links = p.links.toIntArray();
    long[] values = new long[n];
    long[] first = new long[n];
    int[] events = p.events.toIntArray();
    for (int i = 0; i < n; i++) {
      check("stack_index", stacks[i], d.stacks.length);
      check("link_index", links[i], d.linkTraceIds.length);
      for (int attribute : p.attributes.get(i)) {
        check("attribute_indices", attribute, d.attributeKeys.length);
      }
      values[i] = p.values.get(i);
      first[i] = p.firstTimestamps.get(i);
    }
    return new ProfilesRequest.Profile(
        string(d, p.type), string(d, p.unit), string(d, p.periodType), string(d, p.periodUnit),
        p.period, p.time, p.duration, n, stacks, links,
        p.attributes.toArray(new int[0][]), values, first, events);
  }

  private static String string(ProfilesRequest.Dictionary d, int index) throws MalformedProfileException {
    check("string index", index, d.strings.length);
    return d.strings[index];
  }

  static void check(String what, int index, int size) throws MalformedProfileException {
    if (index < 0 || index >= size) {
      throw new MalformedProfileException(what + " " + index + " outside its table (size " + size + ")");
    }
  }
}
