package io.spanflight.internal.report;

import io.spanflight.internal.format.MalformedProtoException;
import io.spanflight.internal.format.ProtoReader;
import io.spanflight.internal.tables.LongList;
import java.util.ArrayList;
import java.util.List;

/**
 * Decodes a {@code ProfilesDictionary}: strings, functions, locations (their lines' functions),
 * stacks, links and attributes. Mappings are skipped (JVM frames have none). Every index is
 * checked against its table once all tables are read, since fields may come in any order, and the
 * frames the stacks expand to are counted against a budget (see {@link ReportLimits}).
 *
 * <p>Not API: internal to Spanflight.
 */
final class DictionaryDecoder {
  private DictionaryDecoder() {}

  /**
   * @param frameBudget how many frames all stacks together may expand to (each location counts
   *     its lines, at least one); more is refused, as a few bytes could stand for millions
   */
  static ProfilesRequest.Dictionary decode(ProtoReader in, long frameBudget) throws MalformedProtoException {
    List<String> strings = new ArrayList<>();
    LongList functionNames = new LongList();
    List<int[]> locations = new ArrayList<>();
    List<int[]> stacks = new ArrayList<>();
    List<byte[]> traceIds = new ArrayList<>();
    List<byte[]> spanIds = new ArrayList<>();
    LongList attributeKeys = new LongList();
    List<ProtoReader> attributeValues = new ArrayList<>();
    LongList scratch = new LongList();
    while (in.hasMore()) {
      switch (in.nextField()) {
        case 2: locations.add(readLocation(in.readMessage(), scratch)); break;
        case 3: functionNames.add(readFunctionName(in.readMessage())); break;
        case 4: {
          byte[][] link = readLink(in.readMessage());
          traceIds.add(link[0]);
          spanIds.add(link[1]);
          break;
        }
        case 5: strings.add(in.readString()); break;
        case 6: {
          ProtoReader attribute = in.readMessage();
          int key = 0;
          ProtoReader value = null;
          while (attribute.hasMore()) {
            int field = attribute.nextField();
            if (field == 1) {
              key = attribute.readInt();
            } else if (field == 2) {
              value = attribute.readMessage();
            } else {
              attribute.skipField();
            }
          }
          attributeKeys.add(key);
          attributeValues.add(value);
          break;
        }
        case 7: {
          ProtoReader stack = in.readMessage();
          scratch.clear();
          while (stack.hasMore()) {
            if (stack.nextField() == 1) {
              stack.readVarints(scratch);
            } else {
              stack.skipField();
            }
          }
          stacks.add(scratch.toIntArray());
          break;
        }
        default: in.skipField();
      }
    }
    String[] table = strings.toArray(new String[0]);
    if (table.length == 0) {
      table = new String[] {""};
    }
    int[] functions = functionNames.toIntArray();
    for (int name : functions) {
      RequestDecoder.check("function name_strindex", name, table.length);
    }
    for (int[] lines : locations) {
      for (int function : lines) {
        RequestDecoder.check("line function_index", function, functions.length);
      }
    }
    long frames = 0;
    for (int[] stack : stacks) {
      for (int location : stack) {
        RequestDecoder.check("location index", location, locations.size());
        frames += Math.max(1, locations.get(location).length);
      }
      if (frames > frameBudget) {
        throw new MalformedProfileException("the stacks expand to more than " + frameBudget
            + " frames (a stack repeats locations with many lines)");
      }
    }
    int[] keys = attributeKeys.toIntArray();
    String[] values = new String[keys.length];
    for (int i = 0; i < keys.length; i++) {
      RequestDecoder.check("attribute key_strindex", keys[i], table.length);
      values[i] = attributeValues.get(i) == null ? "" : AnyValues.text(attributeValues.get(i), table);
    }
    if (stacks.isEmpty()) {
      stacks.add(new int[0]);
    }
    if (traceIds.isEmpty()) {
      traceIds.add(new byte[0]);
      spanIds.add(new byte[0]);
    }
    return new ProfilesRequest.Dictionary(table, functions, locations.toArray(new int[0][]),
        stacks.toArray(new int[0][]), traceIds.toArray(new byte[0][]), spanIds.toArray(new byte[0][]),
        keys, values, frames);
  }

  private static int[] readLocation(ProtoReader in, LongList scratch) throws MalformedProtoException {
    scratch.clear();
    while (in.hasMore()) {
      if (in.nextField() == 3) { // lines
        ProtoReader line = in.readMessage();
        long function = 0;
        while (line.hasMore()) {
          if (line.nextField() == 1) {
            function = line.readVarint();
          } else {
            line.skipField();
          }
        }
        scratch.add(function);
      } else {
        in.skipField();
      }
    }
    return scratch.toIntArray();
  }

  private static int readFunctionName(ProtoReader in) throws MalformedProtoException {
    int name = 0;
    while (in.hasMore()) {
      if (in.nextField() == 1) {
        name = in.readInt();
      } else {
        in.skipField();
      }
    }
    return name;
  }

  private static byte[][] readLink(ProtoReader in) throws MalformedProtoException {
    byte[][] ids = {new byte[0], new byte[0]};
    while (in.hasMore()) {
      int field = in.nextField();
      if (field == 1 || field == 2) {
        ids[field - 1] = in.readBytes();
      } else {
        in.skipField();
      }
    }
    return ids;
  }
}
