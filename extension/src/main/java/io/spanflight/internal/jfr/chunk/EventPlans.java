package io.spanflight.internal.jfr.chunk;

import io.spanflight.internal.jfr.chunk.ChunkMetadata.Field;
import io.spanflight.internal.jfr.chunk.ChunkMetadata.Type;
import io.spanflight.internal.tables.LongIntMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What a {@link ChunkReader} reads of each event type it subscribes to, worked out once per
 * metadata: per type id of the chunk, a plan {subscription, index of the start time field, of the
 * duration field, then per field of the type its slot in the values handed out, or -1 for a field
 * passed over}. {@link EventDispatch} reads each event by its type's plan.
 *
 * <p>Planning is also where a field asked for is checked to be what it must be (see {@link
 * Expected}), before any of the chunk's events is read: a field that is missing when required,
 * an array, a nested value, or of another type than expected is a {@link ChunkFormatException}.
 *
 * <p>Not API: internal to Spanflight.
 */
final class EventPlans {
  /** A plan's slots before its per-field ones. */
  static final int PLAN_SLOTS = 3;

  private final String[] eventNames;
  private final String[][] eventFields;
  private final Expected[][] expected;
  private final int widest;
  /** Event type id of this chunk to its plan's index in {@link #plans}. */
  private final LongIntMap planOfType = new LongIntMap();
  private final List<int[]> plans = new ArrayList<>();

  /**
   * Plans for the events named in {@code eventNames}; subscription i asks for the fields {@code
   * eventFields[i]}, each at most once, each to be what {@code expected[i]} says.
   */
  EventPlans(String[] eventNames, String[][] eventFields, Expected[][] expected) {
    this.eventNames = eventNames.clone();
    this.eventFields = eventFields.clone();
    this.expected = expected.clone();
    int widest = 0;
    for (int i = 0; i < eventFields.length; i++) {
      widest = Math.max(widest, eventFields[i].length);
      requireDistinct(eventFields[i]);
      if (expected[i].length != eventFields[i].length) {
        throw new IllegalArgumentException("expected " + Arrays.toString(expected[i]) + " for the fields "
            + Arrays.toString(eventFields[i]));
      }
    }
    this.widest = widest;
  }

  /** {@link Expected#ANY} for every field of {@code eventFields}. */
  static Expected[][] anything(String[][] eventFields) {
    Expected[][] expected = new Expected[eventFields.length][];
    for (int i = 0; i < eventFields.length; i++) {
      expected[i] = new Expected[eventFields[i].length];
      Arrays.fill(expected[i], Expected.ANY);
    }
    return expected;
  }

  /** A field asked for twice would fill only one of its slots: refused. */
  private static void requireDistinct(String[] fields) {
    for (int i = 0; i < fields.length; i++) {
      for (int j = i + 1; j < fields.length; j++) {
        if (!fields[i].isEmpty() && fields[i].equals(fields[j])) {
          throw new IllegalArgumentException("field " + fields[i] + " asked for twice in " + Arrays.toString(fields));
        }
      }
    }
  }

  /** The most fields any subscription asks for: how many values an event hands out. */
  int widest() {
    return widest;
  }

  /** The plan for events of type {@code typeId} of this chunk, or null for a type not subscribed to. */
  int[] planOf(long typeId) {
    int planIndex = planOfType.get(typeId);
    return planIndex < 0 ? null : plans.get(planIndex);
  }

  /** Works out, for each subscribed event type {@code metadata} declares, where the wanted fields are. */
  void plan(ChunkMetadata metadata) throws ChunkFormatException {
    planOfType.clear();
    plans.clear();
    for (int subscription = 0; subscription < eventNames.length; subscription++) {
      Type type = metadata.type(eventNames[subscription]);
      if (type == null) {
        continue; // not in this chunk (an event class not yet loaded, or another JDK)
      }
      int[] plan = new int[PLAN_SLOTS + type.fields().size()];
      Arrays.fill(plan, -1);
      plan[0] = subscription;
      plan[1] = type.fieldIndex("startTime");
      plan[2] = type.fieldIndex("duration");
      String[] wanted = eventFields[subscription];
      for (int slot = 0; slot < wanted.length; slot++) {
        if (wanted[slot].isEmpty()) {
          continue;
        }
        int field = type.fieldIndex(wanted[slot]);
        Expected expect = expected[subscription][slot];
        if (field >= 0) {
          requireReadable(metadata, type, type.fields().get(field));
          requireExpected(metadata, type, type.fields().get(field), expect);
          plan[PLAN_SLOTS + field] = slot;
        } else if (expect.required()) {
          throw new ChunkFormatException("event " + type.name() + " has no field " + wanted[slot]
              + ", which the reader's plan reads");
        }
      }
      planOfType.put(type.id(), plans.size());
      plans.add(plan);
    }
  }

  /**
   * A field asked for must hold one value: a number, a string or a constant reference. An array or
   * a nested value would be read as -1 (no value) for every event, and every sample dropped without
   * a word: the event's layout is not the one this reader's plan reads.
   */
  private static void requireReadable(ChunkMetadata metadata, Type type, Field field) throws ChunkFormatException {
    if (field.array() || (!field.constantPool() && metadata.type(field.typeId()).kind() == ChunkMetadata.Kind.FIELDS)) {
      throw new ChunkFormatException("event " + type.name() + " has field " + field.name() + " as "
          + (field.array() ? "an array" : "a nested value") + ", not the single value the reader's plan reads");
    }
  }

  /**
   * A field asked for must be what the plan reads it as (see {@link Expected}): a JDK that changed
   * its type would have its values read as something else.
   */
  private static void requireExpected(ChunkMetadata metadata, Type type, Field field, Expected expect)
      throws ChunkFormatException {
    if (expect == Expected.ANY) {
      return;
    }
    Type of = metadata.type(field.typeId());
    String reference = expect.reference();
    boolean as = reference != null
        ? field.constantPool() && of.name().equals(reference)
        : !field.constantPool() && (expect == Expected.STRING || expect == Expected.STRING_IF_PRESENT
            ? of.kind() == ChunkMetadata.Kind.STRING
            : of.kind() != ChunkMetadata.Kind.STRING && of.kind() != ChunkMetadata.Kind.FIELDS);
    if (!as) {
      throw new ChunkFormatException("event " + type.name() + " has field " + field.name() + " of type " + of.name()
          + (field.constantPool() ? " (a constant reference)" : "") + ", not the "
          + (reference != null ? "reference to " + reference
              : expect == Expected.STRING || expect == Expected.STRING_IF_PRESENT ? "string" : "number")
          + " the reader's plan reads");
    }
  }
}
