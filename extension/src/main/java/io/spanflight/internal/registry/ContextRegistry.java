package io.spanflight.internal.registry;

import io.opentelemetry.api.trace.SpanContext;
import io.spanflight.internal.bridge.ContextBridge;
import io.spanflight.internal.bridge.ContextIds;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;
import java.util.function.IntPredicate;
import java.util.function.UnaryOperator;

/**
 * Interns span contexts into small int ids (0 means "no span"), so that a context switch stores
 * four bytes, and resolves ids back when samples are joined.
 *
 * <p>Lifetime: an id must stay resolvable while any timeline entry that JFR samples may still be
 * joined against refers to it. {@link #prune} is called periodically by the background thread
 * with the set of ids still referenced by timelines; records that are neither referenced nor used
 * by the capture path in the current or previous epoch are removed and their ids reused. The
 * epoch guard covers a switch whose id was interned but whose ring entry was not yet drained.
 * A removed id's slot waits in quarantine until a later prune finds no timeline referring to it.
 * A record unused for two epochs leaves the key map first (also while still referenced), so that
 * the span context it was interned by can be collected while the record waits for its timelines.
 *
 * <p>Each slot keeps its {@link ContextRecord} object, which is defined anew for the next span the
 * slot is handed to (so that young collections do not copy a new record per span). A removed
 * record is retired at once (its id resolves to nothing), and its slot is handed out again only
 * when, besides no timeline, no {@link ReadWindow} that was open when it was retired is still
 * open: a join reads a record it resolved without ever seeing it change under it.
 *
 * <p>Ids carry a generation ({@link ContextIds}): a slot handed out again gets the next
 * generation, so an id is never handed out twice while its slot's generations have not wrapped.
 * A capture thread that got an id, was preempted while its record was removed and its slot
 * reused, and wrote the old id afterwards leaves an entry that resolves to nothing (the join
 * counts it unknown), never one that resolves to somebody else's span; the native record of
 * that thread shows no context.
 *
 * <p>Over 250 lines because interning, resolving and pruning share the key map, the slot table and
 * the free-slot queues, and their ordering rules (above) only read right side by side.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class ContextRegistry {
  public static final int NO_CONTEXT = 0;
  /**
   * Free slots that keep their record object for the next span (about 90 bytes each): this many,
   * or as many as there are current records if more. Slots freed beyond it, after a burst of spans,
   * let theirs go. A busy service frees about as many slots each second as it interns (Spring
   * PetClinic: 15 000 a second, 55 000 current): with a fixed bound below that, it let record
   * objects go each second and made new ones the next, which young collections then copied.
   */
  static final int MAX_IDLE_RECORDS = 16_384;

  /**
   * The id of each interned key: the SpanContext, or a {@link UserKeyed} when user entries come
   * with it. Ids, not records: the id's generation tells whether its record still stands for the
   * key, so the record keeps no reference to the key. A record is old (it serves span after span)
   * and the key young; a record given the key on every define made G1 scan its card at the next
   * young collection (Spring PetClinic: 15 000 defines a second).
   */
  private final ConcurrentHashMap<Object, Integer> byKey = new ConcurrentHashMap<>();
  private final RecordTable byId = new RecordTable();
  private final AtomicInteger size = new AtomicInteger();
  /** The last ids of free slots, first freed first: a slot is reused as late as possible. */
  private final IntQueue freeIds = new IntQueue();
  /** Ids removed by earlier prunes whose slot is not yet known to be unreferenced. */
  private final IntQueue quarantine = new IntQueue();
  private final AtomicInteger nextIndex = new AtomicInteger(1);
  private final AtomicLong exhausted = new AtomicLong();
  private volatile int epoch;
  private final ContextBridge bridge;
  private final UnaryOperator<SpanContext> linkTarget;
  private final ContextAttributes attributes;
  private final int maxIndex;
  private final CopyOnWriteArrayList<ReadWindow> windows = new CopyOnWriteArrayList<>();
  /**
   * Interns a span context key (or keeps the current id a racing thread interned); one object,
   * not a capturing lambda per new span.
   */
  private final BiFunction<Object, Integer, Integer> internSpan =
      (key, known) -> isCurrent(known) ? known : create((SpanContext) key, null);

  /** @param bridge told what each id stands for before the id is handed out */
  public ContextRegistry(ContextBridge bridge) {
    this(bridge, UnaryOperator.identity());
  }

  /**
   * @param linkTarget the span that samples taken in a span link to (identity: the span itself;
   *     {@link LocalRoots#localRootOf} in the Grafana mode)
   */
  public ContextRegistry(ContextBridge bridge, UnaryOperator<SpanContext> linkTarget) {
    this(bridge, linkTarget, ContextAttributes.NONE);
  }

  /** @param attributes which span attributes each context carries, and from where */
  public ContextRegistry(
      ContextBridge bridge, UnaryOperator<SpanContext> linkTarget, ContextAttributes attributes) {
    this(bridge, linkTarget, attributes, ContextIds.MAX_INDEX);
  }

  /** @param maxIndex the highest slot index handed out (tests: a registry that fills up soon) */
  ContextRegistry(
      ContextBridge bridge, UnaryOperator<SpanContext> linkTarget, ContextAttributes attributes, int maxIndex) {
    this.bridge = bridge;
    this.linkTarget = linkTarget;
    this.attributes = attributes;
    this.maxIndex = Math.min(maxIndex, ContextIds.MAX_INDEX);
  }

  /** A span context together with user-defined entries. */
  private record UserKeyed(SpanContext spanContext, UserEntries entries) {}

  /** Capture path: the id of a valid span context, creating it on first use. */
  public int idOf(SpanContext spanContext) {
    int id = currentId(byKey.get(spanContext));
    if (id == NO_CONTEXT) {
      id = currentId(byKey.compute(spanContext, internSpan));
    }
    return id;
  }

  /**
   * Capture path: the id of a span context (valid, or invalid when only user entries are current)
   * with user-defined entries (null: none). Allocates a small key when entries are present.
   */
  public int idOf(SpanContext spanContext, UserEntries entries) {
    if (entries == null) {
      return spanContext.isValid() ? idOf(spanContext) : NO_CONTEXT;
    }
    UserKeyed key = new UserKeyed(spanContext, entries);
    int id = currentId(byKey.get(key));
    if (id == NO_CONTEXT) {
      id = currentId(byKey.compute(key, (k, known) -> isCurrent(known) ? known : create(spanContext, entries)));
    }
    return id;
  }

  /**
   * The id the key map gave, if its record still stands for it (its use noted), else 0. A record
   * retired and defined for another context meanwhile has the slot's next generation, so the id
   * of another context is never returned for this one.
   */
  int currentId(Integer id) {
    ContextRecord record = id == null ? null : byId.get(id);
    if (record == null) {
      return NO_CONTEXT;
    }
    record.lastEpoch = epoch;
    return id;
  }

  private boolean isCurrent(Integer id) {
    return id != null && byId.get(id) != null;
  }

  /** A fresh id (its slot's own record, defined anew), or null when all slots are in use. */
  private Integer create(SpanContext spanContext, UserEntries entries) {
    int id = nextId();
    if (id == NO_CONTEXT) {
      exhausted.incrementAndGet();
      return null;
    }
    ContextRecord record = byId.retired(ContextIds.index(id));
    boolean fresh = record == null;
    if (fresh) {
      record = new ContextRecord(attributes);
    }
    record.define(id, spanContext, linkTarget.apply(spanContext), entries, epoch);
    bridge.define(id, record.traceIdHigh(), record.traceIdLow(), record.spanIdNumber(),
        spanContext.getTraceFlags().asByte(), record.recordAttributes());
    if (fresh) {
      byId.put(record);
    }
    size.incrementAndGet();
    return id;
  }

  /** The next generation of the slot freed first, or a never-used slot, or 0 when none is left. */
  private int nextId() {
    int freed = freeIds.poll(NO_CONTEXT);
    if (freed != NO_CONTEXT) {
      return ContextIds.next(freed);
    }
    int index = nextIndex.get();
    while (index <= maxIndex) {
      if (nextIndex.compareAndSet(index, index + 1)) {
        return ContextIds.first(index);
      }
      index = nextIndex.get();
    }
    return NO_CONTEXT;
  }

  /**
   * Join path: the record of an id, or null for {@link #NO_CONTEXT} and ids that are not
   * current: removed, or of an earlier generation of a slot that was reused since. A thread other
   * than the pruning one calls it inside its {@link ReadWindow} and uses the record only there.
   */
  public ContextRecord resolve(int id) {
    return id == NO_CONTEXT ? null : byId.get(id);
  }

  /** A window for a thread that resolves ids (one per thread, kept for its life). */
  public ReadWindow readWindow() {
    ReadWindow window = new ReadWindow(this);
    windows.add(window);
    return window;
  }

  int epoch() {
    return epoch;
  }

  /**
   * Removes records whose slot no timeline references ({@code referenced}, asked with {@link
   * ContextIds#index slot indexes}, is false) and that the capture path has not used since the
   * previous call. Returns how many were removed.
   */
  public int prune(IntPredicate referenced) {
    int current = epoch;
    // the key map first: a record that leaves it now is found by no capture thread that looks later
    byKey.values().removeIf(id -> !usedSince(byId.get(id), current - 1));
    boolean windowsClear = windowsClearOfEpochsBefore(current);
    int[] waiting = quarantine.toArray();
    quarantine.clear();
    int idleBound = Math.max(MAX_IDLE_RECORDS, size.get());
    for (int id : waiting) {
      if (!windowsClear || referenced.test(ContextIds.index(id))) {
        quarantine.add(id);
      } else {
        ContextRecord free = byId.retired(ContextIds.index(id));
        if (free != null && freeIds.size() < idleBound) {
          free.clear(); // no reader left: let go of its span's objects while the slot is idle
        } else if (free != null) {
          byId.drop(ContextIds.index(id), free); // after a burst: idle slots beyond the bound keep no object
        }
        freeIds.add(id);
      }
    }
    int[] removed = {0};
    byId.forEach(nextIndex.get(), record -> {
      if (!usedSince(record, current - 1) && !referenced.test(ContextIds.index(record.id()))) {
        int id = record.id();
        record.retire();
        quarantine.add(id);
        size.decrementAndGet();
        removed[0]++;
      } else {
        record.releaseEndedSource();
      }
    });
    epoch = current + 1;
    return removed[0];
  }

  /** Whether {@code record} is current and the capture path used it in epoch {@code since} or later. */
  private static boolean usedSince(ContextRecord record, int since) {
    return record != null && record.lastEpoch >= since;
  }

  /** Whether no read window can hold a record retired before epoch {@code current}. */
  private boolean windowsClearOfEpochsBefore(int current) {
    for (ReadWindow window : windows) {
      if (!window.clearOfEpochsBefore(current)) {
        return false;
      }
    }
    return true;
  }

  /**
   * The span has ended: its record leaves the key map now, so the map no longer holds the
   * application's span context (and its id strings); the record stays resolvable by id for the
   * timelines that refer to it, and a later use of the same span, rare, interns a new record with
   * the same link. If the span is a local root, its {@link LocalRoot} keeps its attributes and
   * lets it go now, for the records of all its spans, rather than at the next prune: a span held
   * for up to a second outlives young collections, which copy it and everything it holds. Records
   * interned with user entries wait for the epoch rule.
   */
  public void spanEnded(SpanContext spanContext) {
    Integer id = byKey.remove(spanContext); // one map operation per span
    ContextRecord record = id == null ? null : byId.get(id);
    if (record != null) {
      record.releaseEndedSource();
    }
  }

  /** Contexts that got no id because every slot was in use (they join as "no span"). */
  public long exhausted() {
    return exhausted.get();
  }

  /** Records currently interned. */
  public int size() {
    return size.get();
  }
}
