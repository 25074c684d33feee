package io.spanflight.internal.jfr.chunk;

import io.spanflight.internal.jfr.chunk.ChunkMetadata.Type;

/**
 * Where the fields the kept constant pools are read for sit in their types (-1 where a type lacks
 * one), looked up once per metadata rather than once per constant: a symbol's string, a class's
 * name, a method's class, name and descriptor, a thread's Java id and whether it is virtual, and a
 * stack frame's method and line.
 *
 * <p>Not API: internal to Spanflight.
 */
record PoolFields(int symbolString, int className, int methodType, int methodName,
    int methodDescriptor, int threadJavaId, int threadVirtual, int frameMethod, int frameLine) {

  static PoolFields of(ChunkMetadata metadata) throws ChunkFormatException {
    Type frame = frameType(metadata);
    return new PoolFields(index(metadata.type("jdk.types.Symbol"), "string"),
        index(metadata.type("java.lang.Class"), "name"),
        index(metadata.type("jdk.types.Method"), "type"),
        index(metadata.type("jdk.types.Method"), "name"),
        index(metadata.type("jdk.types.Method"), "descriptor"),
        index(metadata.type("java.lang.Thread"), "javaThreadId"),
        index(metadata.type("java.lang.Thread"), "virtual"),
        index(frame, "method"), index(frame, "lineNumber"));
  }

  /** The type of a stack trace's frames, as the metadata declares its {@code frames} field. */
  private static Type frameType(ChunkMetadata metadata) throws ChunkFormatException {
    Type stackTrace = metadata.type(ChunkStacks.STACK_TRACE_TYPE);
    int frames = index(stackTrace, "frames");
    return frames < 0 ? null : metadata.type(stackTrace.fields().get(frames).typeId());
  }

  private static int index(Type type, String field) {
    return type == null ? -1 : type.fieldIndex(field);
  }
}
