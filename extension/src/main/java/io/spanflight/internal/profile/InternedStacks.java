package io.spanflight.internal.profile;

/**
 * Stacks and methods as a JFR reader hands them out: by index, each stack interned once (the
 * reader's {@code jfr.chunk.ConstantStore}). A stack is its frames, the top (leaf) first; a frame
 * is a method and a line. Indexes hold until the {@link #generation} changes.
 *
 * <p>Not API: internal to Spanflight.
 */
public interface InternedStacks {
  /** Changes whenever the indexes given so far stop meaning what they meant. */
  int generation();

  /** Frames in stack {@code stack}. */
  int stackLength(int stack);

  /** Frame {@code position} (0: the top) of stack {@code stack}. */
  int frame(int stack, int position);

  int frameMethod(int frame);

  /** The frame's line number, or a negative number when it has none. */
  int frameLine(int frame);

  /** The method's class name as Java writes it ({@code java.util.HashMap$Node}). */
  String className(int method);

  String methodName(int method);

  String methodDescriptor(int method);
}
