package io.spanflight.internal.profile;

import io.spanflight.internal.registry.ContextRecord;
import io.spanflight.internal.tables.IndexMap;
import io.spanflight.internal.tables.LongIntMap;
import io.spanflight.internal.tables.LongList;
import io.spanflight.internal.tables.StackTable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The shared {@code ProfilesDictionary} of one export request, built while samples arrive. Every
 * table starts with its zero value at index 0 and interns entries, so nothing is duplicated.
 * Tables: strings, functions, locations, stacks, links, attributes and mappings (mappings hold
 * only the zero value: JVM frames have no native mapping).
 *
 * <p>Not API: internal to Spanflight.
 */
final class DictionaryBuilder {
  static final String FRAME_TYPE_KEY = "profile.frame.type";
  static final String FRAME_TYPE_JVM = "jvm";

  /** An int[] usable as a map key. */
  private static final class IntsKey {
    final int[] ints;
    final int hash;

    IntsKey(int[] ints) {
      this.ints = ints;
      this.hash = Arrays.hashCode(ints);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof IntsKey && Arrays.equals(ints, ((IntsKey) o).ints);
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }

  final List<String> strings = new ArrayList<>();
  final FunctionTable functions = new FunctionTable();
  /** Per location: (function index << 32) | line. */
  final LongList locations = new LongList();
  final StackTable stacks = new StackTable();
  /** The spans samples link to; index 0 is no span. */
  final LinkTable links = new LinkTable();
  /** The attribute table: index 0 is the zero value, index 1 is profile.frame.type = jvm. */
  final int frameTypeKey;
  static final int FRAME_TYPE_ATTRIBUTE = 1;
  /** Sample attributes from index 2 on: (key string index << 32) | value string index. */
  final LongList attributes = new LongList();
  /** Sets of attribute indexes that samples carry; index 0 is the empty set. */
  final List<int[]> attributeSets = new ArrayList<>();

  // Index maps without a node or boxed number per entry: a dictionary lives for an interval.
  private final IndexMap<String> stringIndex = new IndexMap<>();
  private final IndexMap<String> functionIndex = new IndexMap<>();
  private final LongIntMap locationIndex = new LongIntMap();
  private final LongIntMap attributeIndex = new LongIntMap();
  private final IndexMap<IntsKey> attributeSetIndex = new IndexMap<>();

  private final FunctionNames functionNames;

  DictionaryBuilder() {
    this(new FunctionNames());
  }

  /** @param functionNames names kept across intervals (the collector's) */
  DictionaryBuilder(FunctionNames functionNames) {
    this.functionNames = functionNames;
    clear();
    frameTypeKey = string(FRAME_TYPE_KEY);
  }

  /**
   * Empties every table down to its zero values, keeping the tables' arrays (the maps' and
   * lists' capacity) for the next interval: allocated once, they are not copied again and again
   * by young collections as a new set every interval would be.
   */
  void clear() {
    strings.clear();
    stringIndex.clear();
    functions.clear();
    functionIndex.clear();
    locations.clear();
    locationIndex.clear();
    stacks.clear();
    links.clear();
    attributes.clear();
    attributeIndex.clear();
    attributeSets.clear();
    attributeSetIndex.clear();
    string("");
    functions.add(0, 0, 0);
    locations.add(0L);
    stacks.intern(new int[0], 0); // a sample without frames uses the zero stack
    int key = string(FRAME_TYPE_KEY); // index 1, in every interval: frameTypeKey
    attributes.add(0L);
    attributes.add(((long) key << 32) | string(FRAME_TYPE_JVM));
    attributeSets.add(new int[0]);
    attributeSetIndex.put(new IntsKey(new int[0]), 0);
  }

  /** Entries in all tables: how much a cleared builder keeps room for. */
  int entries() {
    return strings.size() + functions.size() + locations.size() + stacks.size() + links.size()
        + attributes.size() + attributeSets.size();
  }

  int string(String value) {
    int index = stringIndex.get(value);
    if (index == IndexMap.ABSENT) {
      index = strings.size();
      strings.add(value);
      stringIndex.put(value, index);
    }
    return index;
  }

  /**
   * The function {@code className.methodName} with the given descriptor; the file name is derived
   * from the class name (JFR does not record source files).
   */
  int function(String className, String methodName, String descriptor) {
    String[] names = functionNames.of(className, methodName, descriptor);
    int index = functionIndex.get(names[1]);
    if (index == IndexMap.ABSENT) {
      index = functions.add(string(names[0]), string(names[1]), string(names[2]));
      functionIndex.put(names[1], index);
    }
    return index;
  }

  int location(int function, int line) {
    long key = ((long) function << 32) | (line & 0xFFFFFFFFL);
    int index = locationIndex.get(key);
    if (index == LongIntMap.ABSENT) {
      index = locations.size();
      locations.add(key);
      locationIndex.put(key, index);
    }
    return index;
  }

  /** Interns a stack of location indexes, leaf first (the array is copied: it may be reused). */
  int stack(int[] locationIndexes) {
    return stack(locationIndexes, locationIndexes.length);
  }

  /** Interns the stack {@code locationIndexes[0..length)}, leaf first. */
  int stack(int[] locationIndexes, int length) {
    return stacks.intern(locationIndexes, length);
  }

  /** The link to a span, or 0 for no span. */
  int link(ContextRecord record) {
    if (record == null) {
      return 0;
    }
    return links.intern(record.traceIdHigh(), record.traceIdLow(), record.linkSpanId());
  }

  /**
   * Interns a set of string attributes given as {key, value, key, value...} and returns the
   * index of the set (0 for none); {@link #attributeSets} holds each set's attribute indexes.
   */
  int attributeSet(String[] pairs) {
    if (pairs.length == 0) {
      return 0;
    }
    int[] indexes = new int[pairs.length / 2];
    for (int i = 0; i < indexes.length; i++) {
      indexes[i] = attribute(pairs[2 * i], pairs[2 * i + 1]);
    }
    IntsKey key = new IntsKey(indexes);
    int index = attributeSetIndex.get(key);
    if (index == IndexMap.ABSENT) {
      index = attributeSets.size();
      attributeSets.add(indexes);
      attributeSetIndex.put(key, index);
    }
    return index;
  }

  private int attribute(String key, String value) {
    long entry = ((long) string(key) << 32) | string(value);
    int index = attributeIndex.get(entry);
    if (index == LongIntMap.ABSENT) {
      index = attributes.size();
      attributes.add(entry);
      attributeIndex.put(entry, index);
    }
    return index;
  }

  /** {@code com.example.Outer$Inner} and {@code Outer$$Lambda/0x..} both live in {@code Outer.java}. */
  static String sourceFileOf(String className) {
    String simple = className.substring(className.lastIndexOf('.') + 1);
    int nested = simple.indexOf('$');
    if (nested > 0) {
      simple = simple.substring(0, nested);
    }
    int hidden = simple.indexOf('/');
    if (hidden > 0) {
      simple = simple.substring(0, hidden);
    }
    return simple + ".java";
  }
}
