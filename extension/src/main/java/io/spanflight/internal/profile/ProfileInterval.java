package io.spanflight.internal.profile;

import io.spanflight.internal.registry.ContextRecord;
import io.spanflight.internal.tables.LongIntMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Everything sampled during one export interval: the shared dictionary and one table of samples
 * per sample type, ready to be encoded as one {@code ExportProfilesServiceRequest}. Used by one
 * thread at a time (the {@link ProfileCollector} hands it over).
 *
 * <p>Not API: internal to Spanflight.
 */
public final class ProfileInterval {
  final DictionaryBuilder dictionary;
  final Map<SampleType, SampleTable> tables = new LinkedHashMap<>();
  /** Tables of an earlier use of this interval, emptied, for {@link #table} to take again. */
  private final Map<SampleType, SampleTable> emptyTables = new HashMap<>();
  long startEpochNanos;
  private final boolean linkUnsampled;
  /** The reader's stacks and methods (by index) already in this interval's dictionary. */
  private final LongIntMap stackByIndex = new LongIntMap();
  private final LongIntMap functionByMethod = new LongIntMap();
  /** Whose indexes the two maps hold: they are emptied when the reader's indexes change. */
  private InternedStacks indexesOf;
  private int indexGeneration;
  /** The locations of the stack being built (the dictionary copies what it keeps). */
  private int[] scratch = new int[128];

  ProfileInterval(long startEpochNanos) {
    this(startEpochNanos, true);
  }

  /** @param linkUnsampled whether samples of spans that were not sampled link to them */
  ProfileInterval(long startEpochNanos, boolean linkUnsampled) {
    this(startEpochNanos, linkUnsampled, new FunctionNames());
  }

  /** @param functionNames function names kept across intervals (the collector's) */
  ProfileInterval(long startEpochNanos, boolean linkUnsampled, FunctionNames functionNames) {
    this.dictionary = new DictionaryBuilder(functionNames);
    this.startEpochNanos = startEpochNanos;
    this.linkUnsampled = linkUnsampled;
  }

  /**
   * Adds one sample.
   *
   * @param stacks where {@code leaf} and {@code stack} are interned
   * @param leaf a method to put above the frames as the leaf (the traced method of a MethodTrace
   *     event, whose stack starts at the caller), or -1
   * @param stack the stack, top of stack (leaf) first
   * @param context the context the sample belongs to, or null: its span becomes the sample's link
   *     (not for unsampled spans when those are not linked) and its attributes the sample's
   * @param epochNanos when the sample was taken (or the event started), nanoseconds since the epoch
   * @param value the sample's value in the unit of {@code type}
   */
  void add(
      SampleType type,
      InternedStacks stacks,
      int leaf,
      int stack,
      ContextRecord context,
      long epochNanos,
      long value) {
    followIndexesOf(stacks);
    int sampleStack = stack(stacks, leaf, stack);
    boolean linked = context != null && context.hasSpan() && (linkUnsampled || context.sampled());
    int link = linked ? dictionary.link(context) : 0;
    int attributes = context == null ? 0 : dictionary.attributeSet(context.attributePairs());
    table(type).add(sampleStack, link, attributes, epochNanos, value);
  }

  /** Forgets what the maps say of other indexes than those {@code stacks} hands out now. */
  private void followIndexesOf(InternedStacks stacks) {
    if (stacks != indexesOf || stacks.generation() != indexGeneration) {
      stackByIndex.clear();
      functionByMethod.clear();
      indexesOf = stacks;
      indexGeneration = stacks.generation();
    }
  }

  /**
   * The dictionary stack of {@code stack} below {@code leaf} (or alone for -1), built once per
   * pair: most samples are a lookup.
   */
  private int stack(InternedStacks stacks, int leaf, int stack) {
    long key = ((long) leaf << 32) | (stack & 0xFFFF_FFFFL);
    int known = stackByIndex.get(key);
    if (known != LongIntMap.ABSENT) {
      return known;
    }
    int frames = stacks.stackLength(stack);
    int most = frames + 1;
    if (scratch.length < most) {
      scratch = new int[Math.max(most, 2 * scratch.length)];
    }
    int[] locations = scratch;
    int n = 0;
    if (leaf >= 0) {
      locations[n++] = dictionary.location(function(stacks, leaf), 0);
    }
    for (int i = 0; i < frames; i++) {
      int frame = stacks.frame(stack, i);
      locations[n++] = dictionary.location(function(stacks, stacks.frameMethod(frame)), Math.max(0, stacks.frameLine(frame)));
    }
    int built = dictionary.stack(locations, n);
    stackByIndex.put(key, built);
    return built;
  }

  /**
   * Adds a sample whose leaf is one method known by name, with the span of {@code context} (or
   * none): method timing and tracing by bytecode hooks (JDK 17 and 21), shaped like their JFR
   * counterparts (method timing from JFR comes here too) and {@link #add}.
   *
   * @param stack the traced call's stack as the hooks captured it (the traced method first, then
   *     its callers), whose callers go below the leaf as JFR puts a MethodTrace event's stack; null
   *     for the method alone
   */
  void addMethod(
      SampleType type,
      String className,
      String methodName,
      String descriptor,
      StackWalker.StackFrame[] stack,
      ContextRecord context,
      long epochNanos,
      long value) {
    int function = dictionary.function(className, methodName, descriptor);
    int frames = stack == null ? 1 : Math.max(1, stack.length);
    int[] locations = new int[frames];
    locations[0] = dictionary.location(function, 0);
    for (int i = 1; i < frames; i++) {
      StackWalker.StackFrame frame = stack[i];
      // a hidden class's name as JFR writes it: Foo$$Lambda.0x... rather than Foo$$Lambda/0x...
      String callerClass = frame.getClassName().replace('/', '.');
      int caller = dictionary.function(callerClass, frame.getMethodName(), frame.getDescriptor());
      locations[i] = dictionary.location(caller, Math.max(0, frame.getLineNumber()));
    }
    int sampleStack = dictionary.stack(locations);
    boolean linked = context != null && context.hasSpan() && (linkUnsampled || context.sampled());
    int link = linked ? dictionary.link(context) : 0;
    int attributes = context == null ? 0 : dictionary.attributeSet(context.attributePairs());
    table(type).add(sampleStack, link, attributes, epochNanos, value);
  }

  /** The function of the reader's {@code method}, looked up once per method (as for stacks). */
  private int function(InternedStacks stacks, int method) {
    int known = functionByMethod.get(method);
    if (known != LongIntMap.ABSENT) {
      return known;
    }
    int function = dictionary.function(stacks.className(method), stacks.methodName(method), stacks.methodDescriptor(method));
    functionByMethod.put(method, function);
    return function;
  }

  private SampleTable table(SampleType type) {
    SampleTable table = tables.get(type);
    if (table == null) {
      table = emptyTables.remove(type);
      if (table == null) {
        table = new SampleTable();
      }
      tables.put(type, table);
    }
    return table;
  }

  /**
   * Whether this interval, once exported, may be emptied and used again ({@link #empty}): only an
   * interval of ordinary size, so that one burst does not keep its large tables for good.
   */
  boolean reusable() {
    return dictionary.entries() <= MAX_REUSED_ENTRIES && sampleCount() <= MAX_REUSED_ENTRIES
        && dictionary.stacks.locationCapacity() <= MAX_REUSED_LOCATIONS;
  }

  static final int MAX_REUSED_ENTRIES = 1 << 16;
  /** The stack table's locations (4 bytes each) an interval may keep room for: 4 MB. */
  static final int MAX_REUSED_LOCATIONS = 1 << 20;

  /** Samples from {@code startEpochNanos} on go into this (empty) interval. */
  void startAt(long startEpochNanos) {
    this.startEpochNanos = startEpochNanos;
  }

  /**
   * Empties the tables, keeping their capacity: what the interval held (its dictionary's entries,
   * the sample groups built for encoding) is let go now rather than when the interval is next used.
   */
  void empty() {
    dictionary.clear();
    for (Map.Entry<SampleType, SampleTable> entry : tables.entrySet()) {
      entry.getValue().clear();
      emptyTables.put(entry.getKey(), entry.getValue());
    }
    tables.clear();
    stackByIndex.clear();
    functionByMethod.clear();
  }

  public int sampleCount() {
    int total = 0;
    for (SampleTable table : tables.values()) {
      total += table.total();
    }
    return total;
  }

  /** Samples in this interval that carry a link to a span. */
  public int linkedSampleCount() {
    int linked = 0;
    for (SampleTable table : tables.values()) {
      linked += table.linked();
    }
    return linked;
  }
}
