package io.spanflight.internal.jfr.chunk;

/**
 * What a field asked for must be in each chunk's metadata, checked before any of the chunk's
 * events is read: a JDK that renamed a field, dropped it or changed its type would otherwise have
 * its values read as something else (a thread id as a thread reference, a string as a number),
 * or as -1 for every event, and the samples dropped or misjoined without a word. A field that is
 * not what it must be is a {@link ChunkFormatException} (see {@link EventPlans}).
 *
 * <p>Not API: internal to Spanflight.
 */
public enum Expected {
  /** Nothing checked beyond one value (not an array, not nested), and the field may be absent. */
  ANY(false, null),
  /** A number written in the event (an integer, char, byte, boolean, float or double), if the type has the field. */
  NUMBER_IF_PRESENT(false, null),
  /** A number written in the event. */
  NUMBER(true, null),
  /** A string written in the event (its value is a {@link ConstantStore} index). */
  STRING(true, null),
  /** The same, if the type has the field. */
  STRING_IF_PRESENT(false, null),
  /** A reference to a thread of the chunk's constants: for {@link ChunkReader#javaThreadId} and {@link ChunkReader#virtual}. */
  THREAD(true, "java.lang.Thread"),
  /** A reference to a stack trace of the chunk's constants: for {@link ChunkReader#stack}. */
  STACK_TRACE(true, ChunkStacks.STACK_TRACE_TYPE),
  /** A reference to a method of the chunk's constants: for {@link ChunkReader#method}. */
  METHOD(true, "jdk.types.Method");

  private final boolean required;
  /** The type a constant reference must name, or null for a value written in the event. */
  private final String reference;

  Expected(boolean required, String reference) {
    this.required = required;
    this.reference = reference;
  }

  /** Whether the field must be there. */
  boolean required() {
    return required;
  }

  /** The type a constant reference must name, or null for a value written in the event. */
  String reference() {
    return reference;
  }
}
