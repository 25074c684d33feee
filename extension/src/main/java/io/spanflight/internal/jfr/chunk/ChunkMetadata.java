package io.spanflight.internal.jfr.chunk;

import io.spanflight.internal.tables.LongIntMap;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The types a JFR chunk declares in its metadata event: for each type id, its name and its fields
 * in the order their values are written. That order is all a reader needs to find the fields it
 * wants in an event or a constant and to pass over the others.
 *
 * <p>The metadata event is a string table followed by a tree of elements ({@code root} holding
 * {@code metadata}, which holds one {@code class} per type, each with its {@code field}s); each
 * element is a name, attributes and children, all as indexes into the string table. Counts are
 * bounded by the bytes left and the depth by {@value #MAX_DEPTH}.
 *
 * <p>Not API: internal to Spanflight.
 */
final class ChunkMetadata {
  private static final int MAX_DEPTH = 8;
  private static final int MAX_TYPES = 1 << 16;
  /** Per element: JFR writes at most six (name, class, id, superType, simpleType, dimension...). */
  private static final int MAX_ATTRIBUTES = 64;
  /** Strings and elements: JDK 25's metadata has about 2 000 strings and 6 000 elements. */
  private static final int MAX_ENTRIES = 1 << 18;

  /** How a value of a type is written. */
  enum Kind { RAW_BYTE, VARINT, FLOAT, DOUBLE, STRING, FIELDS }

  /**
   * A field of a type. {@code nanosPerUnit} says how a duration field ({@code @Timespan}) is
   * written: nanoseconds per unit, {@link #TICKS} for the chunk's ticks, 0 for a field that is no
   * duration.
   */
  record Field(String name, long typeId, boolean array, boolean constantPool, long nanosPerUnit) {}

  /** {@link Field#nanosPerUnit} of a duration in ticks. */
  static final long TICKS = -1;
  private static final String TIMESPAN = "jdk.jfr.Timespan";

  record Type(long id, String name, Kind kind, List<Field> fields) {
    /** The index of the field named {@code name}, or -1. */
    int fieldIndex(String name) {
      for (int i = 0; i < fields.size(); i++) {
        if (fields.get(i).name().equals(name)) {
          return i;
        }
      }
      return -1;
    }
  }

  /** Type id to index in {@link #types}: looked up for every event and constant, so without boxing. */
  private final LongIntMap indexOfId = new LongIntMap();
  private final Type[] types;
  private final Map<String, Type> byName = new HashMap<>();

  private ChunkMetadata(Map<Long, Type> byId) {
    this.types = byId.values().toArray(Type[]::new);
    for (int i = 0; i < types.length; i++) {
      indexOfId.put(types[i].id(), i);
      byName.put(types[i].name(), types[i]);
    }
  }

  /** The type with this id; a {@link ChunkFormatException} when the metadata has none. */
  Type type(long id) throws ChunkFormatException {
    int index = indexOfId.get(id);
    if (index == LongIntMap.ABSENT) {
      throw new ChunkFormatException("type id " + id + " is not declared in the chunk's metadata");
    }
    return types[index];
  }

  /** The type of this name, or null. */
  Type type(String name) {
    return byName.get(name);
  }

  /** Reads the metadata event at {@code input}'s position (its size and type id included). */
  static ChunkMetadata read(ChunkInput input) throws ChunkFormatException {
    long at = input.position();
    long size = input.readVarLong();
    if (size <= 0 || size > input.end() - at) {
      throw new ChunkFormatException("metadata event size " + size + " at " + at + " passes the chunk's end");
    }
    if (input.readVarLong() != 0) {
      throw new ChunkFormatException("no metadata event at " + at);
    }
    input.readVarLong(); // start time
    input.readVarLong(); // duration
    input.readVarLong(); // metadata id
    int stringCount = input.readCount("metadata string count", MAX_ENTRIES);
    String[] strings = new String[stringCount];
    for (int i = 0; i < stringCount; i++) {
      strings[i] = input.readString();
    }
    Element root = Element.read(input, strings, 0, new int[1]);
    Map<Long, Type> types = new HashMap<>();
    for (Element metadata : root.children("metadata")) {
      String timespan = timespanId(metadata);
      for (Element type : metadata.children("class")) {
        Type t = type(type, timespan);
        if (types.put(t.id(), t) != null || types.size() > MAX_TYPES) {
          throw new ChunkFormatException("type id " + t.id() + " declared twice, or more than " + MAX_TYPES
              + " types, in the metadata at " + at);
        }
      }
    }
    for (Type type : types.values()) {
      for (Field field : type.fields()) {
        if (!types.containsKey(field.typeId())) {
          throw new ChunkFormatException("field " + type.name() + "." + field.name() + " has type id "
              + field.typeId() + ", which the metadata at " + at + " does not declare");
        }
      }
    }
    return new ChunkMetadata(types);
  }

  /** The id of the {@code @Timespan} annotation's type, or null when the metadata has none. */
  private static String timespanId(Element metadata) {
    for (Element type : metadata.children("class")) {
      if (TIMESPAN.equals(type.attributes.get("name"))) {
        return type.attributes.get("id");
      }
    }
    return null;
  }

  /** How a field annotated {@code @Timespan} is written (see {@link Field#nanosPerUnit}); 0 if not. */
  private static long nanosPerUnit(Element field, String timespanId) {
    for (Element annotation : field.children("annotation")) {
      if (annotation.attributes.get("class") != null && annotation.attributes.get("class").equals(timespanId)) {
        return switch (String.valueOf(annotation.attributes.get("value"))) {
          case "TICKS" -> TICKS;
          case "MICROSECONDS" -> 1_000L;
          case "MILLISECONDS" -> 1_000_000L;
          case "SECONDS" -> 1_000_000_000L;
          default -> 1L; // NANOSECONDS, the annotation's default
        };
      }
    }
    return 0;
  }

  private static Type type(Element element, String timespanId) throws ChunkFormatException {
    String name = element.attribute("name");
    long id = element.longAttribute("id");
    List<Field> fields = new ArrayList<>();
    for (Element field : element.children("field")) {
      String dimension = field.attributes.get("dimension");
      if (dimension != null && !dimension.equals("1")) {
        throw new ChunkFormatException("field " + name + "." + field.attribute("name") + " has dimension "
            + dimension + "; JFR writes 1 or none");
      }
      fields.add(new Field(field.attribute("name"), field.longAttribute("class"), dimension != null,
          field.attributes.containsKey("constantPool"), timespanId == null ? 0 : nanosPerUnit(field, timespanId)));
    }
    return new Type(id, name, kind(name, fields), List.copyOf(fields));
  }

  private static Kind kind(String name, List<Field> fields) {
    switch (name) {
      case "boolean":
      case "byte":
        return Kind.RAW_BYTE;
      case "char":
      case "short":
      case "int":
      case "long":
        return Kind.VARINT;
      case "float":
        return Kind.FLOAT;
      case "double":
        return Kind.DOUBLE;
      case "java.lang.String":
        return Kind.STRING;
      default:
        return Kind.FIELDS;
    }
  }

  /** One element of the metadata tree. */
  private static final class Element {
    final String name;
    final Map<String, String> attributes = new HashMap<>();
    final List<Element> children = new ArrayList<>();

    private Element(String name) {
      this.name = name;
    }

    /** Reads an element and its children; {@code count} counts the elements read so far. */
    static Element read(ChunkInput input, String[] strings, int depth, int[] count) throws ChunkFormatException {
      if (depth > MAX_DEPTH || ++count[0] > MAX_ENTRIES) {
        throw new ChunkFormatException("metadata elements nested deeper than " + MAX_DEPTH + " or more than "
            + MAX_ENTRIES + " of them, at " + input.position());
      }
      Element element = new Element(string(input, strings));
      int attributeCount = input.readCount("metadata attribute count", MAX_ATTRIBUTES);
      for (int i = 0; i < attributeCount; i++) {
        element.attributes.put(string(input, strings), string(input, strings));
      }
      int childCount = input.readCount("metadata child count", (int) Math.min(input.remaining(), Integer.MAX_VALUE));
      for (int i = 0; i < childCount; i++) {
        element.children.add(read(input, strings, depth + 1, count));
      }
      return element;
    }

    List<Element> children(String name) {
      List<Element> named = new ArrayList<>();
      for (Element child : children) {
        if (child.name.equals(name)) {
          named.add(child);
        }
      }
      return named;
    }

    String attribute(String key) throws ChunkFormatException {
      String value = attributes.get(key);
      if (value == null) {
        throw new ChunkFormatException("metadata element " + name + " has no attribute " + key);
      }
      return value;
    }

    long longAttribute(String key) throws ChunkFormatException {
      String value = attribute(key);
      try {
        return Long.parseLong(value);
      } catch (NumberFormatException e) {
        throw new ChunkFormatException("metadata attribute " + key + "=" + value + " of " + name + " is not a number");
      }
    }

    private static String string(ChunkInput input, String[] strings) throws ChunkFormatException {
      int index = input.readCount("metadata string index", strings.length - 1);
      String value = strings[index];
      if (value == null) {
        throw new ChunkFormatException("metadata string " + index + " is null");
      }
      return value;
    }
  }
}
