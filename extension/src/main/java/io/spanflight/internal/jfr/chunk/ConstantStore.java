package io.spanflight.internal.jfr.chunk;

import io.spanflight.internal.tables.IndexMap;
import io.spanflight.internal.tables.StackTable;
import java.util.ArrayList;
import java.util.List;

/**
 * What the chunks' constants become once read: strings, methods, frames and stacks, each interned
 * to an index that stays the same from chunk to chunk. JFR numbers its constants anew in every
 * chunk and writes each one again in every chunk that uses it; here a stack seen in a hundred
 * chunks is one entry, held in int arrays that old generations keep, instead of a graph of objects
 * per chunk that young collections copy until the chunk ends (what the JDK's own parser makes).
 *
 * <p>A method is (class name, method name, descriptor) as string indexes; a frame is (method,
 * line); a stack is its frames, the top frame first. A frame keeps neither its bytecode index nor
 * its frame type (interpreted, compiled, inlined): profiles show functions and lines only, and
 * with them one call path compiled in steps was a stack per step (Spring PetClinic's first
 * 90 s: 6 892 stacks and 16 062 frames with them, 5 541 and 12 935 without). Growth is bounded
 * by the reader, which {@linkplain #clear clears} the store between chunks once it holds {@link
 * ChunkReader#MAX_STORE_ENTRIES}, and {@linkplain #clearStacks lets go of its stacks} within a chunk
 * past {@link ChunkReader#MAX_STACK_ENTRIES}: each starts a new {@link #generation}.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class ConstantStore {
  private final List<String> strings = new ArrayList<>();
  /** No map node or boxed index per string: the store keeps tens of thousands of them for minutes. */
  private final IndexMap<String> stringIndex = new IndexMap<>();
  private final StackTable methods = new StackTable();
  private final StackTable frames = new StackTable();
  private final StackTable stacks = new StackTable();
  private final int[] scratch = new int[3];
  private int generation;

  /** The index of {@code text}, interned on first sight. */
  int string(String text) {
    int index = stringIndex.get(text);
    if (index != IndexMap.ABSENT) {
      return index;
    }
    strings.add(text);
    stringIndex.put(text, strings.size() - 1);
    return strings.size() - 1;
  }

  int method(int className, int name, int descriptor) {
    scratch[0] = className;
    scratch[1] = name;
    scratch[2] = descriptor;
    return methods.intern(scratch, 3);
  }

  int frameOf(int method, int line) {
    scratch[0] = method;
    scratch[1] = line;
    return frames.intern(scratch, 2);
  }

  int stack(int[] frameIndexes, int length) {
    return stacks.intern(frameIndexes, length);
  }

  /** The string at {@code index}. */
  public String string(int index) {
    return strings.get(index);
  }

  public int stackLength(int stack) {
    return stacks.length(stack);
  }

  public int frame(int stack, int position) {
    return stacks.location(stack, position);
  }

  public int frameMethod(int frame) {
    return frames.location(frame, 0);
  }

  public int frameLine(int frame) {
    return frames.location(frame, 1);
  }

  /** The method's class name (binary name with slashes, as JFR writes it) as a string index. */
  public int methodClass(int method) {
    return methods.location(method, 0);
  }

  public int methodNameIndex(int method) {
    return methods.location(method, 1);
  }

  public int methodDescriptorIndex(int method) {
    return methods.location(method, 2);
  }

  /** The method's class name with dots ({@code java.util.HashMap$Node}), as the JDK's parser gives it. */
  public String className(int method) {
    return string(methodClass(method)).replace('/', '.');
  }

  public String methodName(int method) {
    return string(methodNameIndex(method));
  }

  public String methodDescriptor(int method) {
    return string(methodDescriptorIndex(method));
  }

  /**
   * Strings, methods, frames and the frames of every stack held (a deep stack counts as deep):
   * what bounds the store.
   */
  public long entries() {
    return (long) strings.size() + methods.size() + frames.size() + stacks.locationCount();
  }

  /** Frames and the frames of every stack held: what {@link #clearStacks} lets go of. */
  public long stackEntries() {
    return (long) frames.size() + stacks.locationCount();
  }

  /** Ints its method, frame and stack tables have room for (what they hold in memory). */
  long capacity() {
    return (long) methods.locationCapacity() + frames.locationCapacity() + stacks.locationCapacity();
  }

  /** Changes whenever {@link #clear} or {@link #clearStacks} drops the indexes given so far. */
  public int generation() {
    return generation;
  }

  /**
   * Drops every stack and frame, keeping strings and methods: indexes of stacks and frames given
   * before mean nothing after (a new {@link #generation}). The reader does this within a chunk,
   * where the strings and methods it read are still named by the chunk's constants. The tables
   * keep their arrays ({@link #clear} says why).
   */
  public void clearStacks() {
    frames.clear();
    stacks.clear();
    generation++;
  }

  /**
   * Drops every entry; indexes given before mean nothing after. The tables keep their arrays for
   * the next fill while the fill just ended needed them (see {@link
   * io.spanflight.internal.tables.Capacity}): a store cleared at its bound fills again, and tables
   * made anew grew again by copies, each copy living minutes, long enough to be promoted, then
   * dropped (Spring PetClinic: ~0.45 MB a minute of old-generation garbage, nearly all the {@code
   * int[]} that Spanflight had promoted outside PLABs, 2026-12-06). Kept, the arrays are promoted
   * once. The list of strings keeps its array of references whatever the fill (an {@code
   * ArrayList} never shrinks): at most one reference per entry of the bound.
   */
  public void clear() {
    strings.clear();
    stringIndex.clear();
    methods.clear();
    clearStacks();
  }
}
