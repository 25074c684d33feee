package io.spanflight.internal.registry;

import io.opentelemetry.api.trace.SpanContext;
import io.spanflight.internal.bridge.ContextBridge;
import io.spanflight.internal.bridge.ContextIds;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.IntPredicate;
import java.util.function.UnaryOperator;

/**
 * Interns span contexts into small int ids (0 means "no span"), so that a context switch stores
 * four bytes, and resolves ids back when samples are joined.
 *
 * <p>Lifetime: an id must stay resolvable while any timeline entry that JFR samples may still be
 * joined against refers to it. {@link #prune} is called periodically by the background thread
 * with the set of ids still referenced by timelines; records that are neither referenced nor used
 * by the capture path in the current or previous epoch are removed and their ids reused, through
 * {@link IdRecycler}, which hands out ids and decides when a removed one's slot is free again.
 *
 * <p>A recorded span between its start and its end is found through {@link LocalRoots}, which
 * keeps the span's {@link LiveSpan} (its local root, and the record it was last interned as) for
 * its own reasons: a switch to it makes that one map lookup and no other, its first switch stores
 * a reference, and its end takes the record out of use as the span's ({@link #spanEnded(LiveSpan)}).
 * Every other context (spans the SDK does not record, spans used after their end, user-defined
 * entries, a registry without live spans) goes through the registry's key map.
 *
 * <p>The key map holds only the contexts interned since the previous prune: every prune takes the
 * records it keeps out of it, so that the span contexts they were interned by (and their id
 * strings) can be collected while the records wait for their timelines. No span processor sees the
 * end of the spans it holds now (the SDK's own spans go through {@link #spanEnded(LiveSpan)}); {@link
 * #spanEnded(SpanContext)} takes one out at once for a caller that knows. A span still in use after
 * a prune is interned anew at its next switch: a second record with the same ids, link and
 * attributes source, at most once a second.
 *
 * <p>Each slot keeps its {@link ContextRecord} object, defined anew for the next span the slot is
 * handed to; a removed record is retired at once (its id resolves to nothing). Ids carry a
 * generation ({@link ContextIds}), so a stale id resolves to nothing, never to another span.
 *
 * <p>Longer than our other classes: interning and resolving share the key map and the slot table,
 * and their ordering rules (above, and at {@link #currentId}) only read right side by side.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class ContextRegistry {
  public static final int NO_CONTEXT = 0;

  /** Keyed by the SpanContext, or by a {@link UserKeyed} when user entries come with it. */
  private final ConcurrentHashMap<Object, ContextRecord> byKey = new ConcurrentHashMap<>();
  private final RecordTable byId = new RecordTable();
  private final AtomicInteger size = new AtomicInteger();
  private final AtomicLong exhausted = new AtomicLong();
  /** Advanced by each prune; read by the capture path at every switch, so it lives here. */
  private volatile int epoch;
  private final IdRecycler ids;
  private final ContextBridge bridge;
  private final UnaryOperator<SpanContext> linkTarget;
  private final ContextAttributes attributes;
  /** Live spans and the records they were interned as, or null: every context goes through the key map. */
  private final LocalRoots liveSpans;
  /** Whether samples link to the local root (the Grafana mode) rather than to the span itself. */
  private final boolean linkLocalRoot;
  /** Creates the record of a span context key; one object, not a capturing lambda per new span. */
  private final Function<Object, ContextRecord> createForSpan = key -> create((SpanContext) key, null, key);

  /** A registry with every setting at its default: {@code builder(bridge).build()}. */
  public ContextRegistry(ContextBridge bridge) {
    this(builder(bridge));
  }

  /** Called by {@link ContextRegistryBuilder#build()}. */
  ContextRegistry(ContextRegistryBuilder settings) {
    this.bridge = settings.bridge;
    this.linkTarget = settings.linkTarget();
    this.attributes = settings.attributes;
    this.ids = new IdRecycler(byId, Math.min(settings.maxIndex, ContextIds.MAX_INDEX));
    this.liveSpans = settings.liveSpans;
    this.linkLocalRoot = settings.linkLocalRoot;
  }

  /** @param bridge told what each id stands for before the id is handed out */
  public static ContextRegistryBuilder builder(ContextBridge bridge) {
    return new ContextRegistryBuilder(bridge);
  }

  /** A span context together with user-defined entries. */
  private record UserKeyed(SpanContext spanContext, UserEntries entries) {}

  /** Capture path: the id of a valid span context, creating it on first use. */
  public int idOf(SpanContext spanContext) {
    return idOf(spanContext, true);
  }

  /**
   * Capture path: as {@link #idOf(SpanContext)}, told whether the span may be one the SDK records
   * ({@code false} for a span that is not the SDK's: a propagated or unsampled one, which has no
   * {@link LiveSpan}, and goes to the key map without looking for one).
   */
  public int idOf(SpanContext spanContext, boolean recorded) {
    LiveSpan live = !recorded || liveSpans == null ? null : liveSpans.live(spanContext);
    if (live != null) {
      return idOf(live, spanContext);
    }
    int id = currentId(byKey.get(spanContext), spanContext);
    if (id == NO_CONTEXT) {
      id = currentId(byKey.computeIfAbsent(spanContext, createForSpan), spanContext);
    }
    return id;
  }

  /**
   * A live span's id: that of the record it was last interned as while the record still stands for
   * it (see {@link #currentId}), else a new record's. Two threads that intern the same span at once
   * each get a record of their own, both correct; the span keeps the later one.
   */
  private int idOf(LiveSpan live, SpanContext spanContext) {
    int id = currentId(live.record(), live);
    if (id != NO_CONTEXT) {
      return id;
    }
    LocalRoot root = live.root();
    ContextRecord record = create(spanContext, null, live, root, linkLocalRoot ? root.context() : spanContext);
    if (record == null) {
      return NO_CONTEXT;
    }
    live.record(record);
    return record.id();
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
    int id = currentId(byKey.get(key), key);
    if (id == NO_CONTEXT) {
      id = currentId(byKey.computeIfAbsent(key, k -> create(spanContext, entries, k)), key);
    }
    return id;
  }

  /**
   * The id of a record the key map gave for {@code key}, if the record still stands for that key
   * (its use noted), else 0. The id is read before the key: a record retired and defined for
   * another context meanwhile shows another key, so its new id is never returned for this one.
   * And read again after it: a record retired and defined anew for this same context (the span
   * re-interned after a prune took its key out) shows the right key but a new id, and the one read
   * first would resolve to nothing. Defining writes the key before the id and retiring writes 0, so
   * an unchanged id around a matching key means the record stood for that key all along.
   */
  int currentId(ContextRecord record, Object key) {
    if (record == null) {
      return NO_CONTEXT;
    }
    int id = record.id();
    Object recordKey = record.key();
    if (recordKey != key && (recordKey == null || !recordKey.equals(key))) {
      return NO_CONTEXT;
    }
    if (record.id() != id) {
      return NO_CONTEXT; // redefined meanwhile: the caller interns (or finds) it anew
    }
    record.lastEpoch = epoch;
    return id;
  }

  /** A record for a fresh id, found through the key map. */
  private ContextRecord create(SpanContext spanContext, UserEntries entries, Object key) {
    LocalRoot root = spanContext.isValid() ? attributes.sourceOf(spanContext) : null;
    return create(spanContext, entries, key, root, linkTarget.apply(spanContext));
  }

  /**
   * A record for a fresh id (the slot's own record, defined anew), or null when all slots are in use.
   *
   * @param root the span's local root, or null when unknown
   * @param linkTo the span samples link to
   */
  private ContextRecord create(
      SpanContext spanContext, UserEntries entries, Object key, LocalRoot root, SpanContext linkTo) {
    int id = ids.nextId();
    if (id == NO_CONTEXT) {
      exhausted.incrementAndGet();
      return null;
    }
    ContextRecord record = byId.retired(ContextIds.index(id));
    boolean fresh = record == null;
    if (fresh) {
      record = byId.newRecord(ContextIds.index(id), attributes);
    }
    record.define(id, key, spanContext, linkTo, root, entries, epoch);
    ContextAttributes.Packed packed = record.recordAttributes();
    bridge.define(id, record.traceIdHigh(), record.traceIdLow(), record.spanIdNumber(),
        spanContext.getTraceFlags().asByte(), packed.bytes(), packed.set());
    if (fresh) {
      byId.put(record);
    }
    size.incrementAndGet();
    return record;
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
    ids.watch(window);
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
    int removed = ids.prune(this, referenced, current);
    epoch = current + 1;
    return removed;
  }

  /** Pruning: a record was retired (see {@link IdRecycler#prune}). */
  void countRetired() {
    size.decrementAndGet();
  }

  /**
   * The span has ended: its record leaves the key map now (see {@link #forgetKey}), and if the
   * span is a local root, its {@link LocalRoot} keeps its attributes and lets it go now, for the
   * records of all its spans, rather than at the next prune: a span held for up to a second
   * outlives young collections, which copy it and everything it holds. Records interned with user
   * entries wait for the next prune.
   */
  public void spanEnded(SpanContext spanContext) {
    ContextRecord record = byKey.remove(spanContext); // one map operation per span: the mapping goes first
    if (record != null) {
      Object key = record.key();
      if (key != null && key.equals(spanContext)) {
        record.forgetKey(key);
        record.releaseEndedSource();
      }
    }
  }

  /**
   * A live span has ended: the record it was last interned as stops being its current record (a
   * later use interns anew, through the key map). If the span is a local root (one a request), its
   * {@link LocalRoot} keeps its attributes and lets it go now, for the records of all its spans,
   * whether or not the root itself was ever current. Other spans' ends do nothing more: asking
   * whether their root has ended takes the root span's lock, which in a service is a cold cache
   * line per span (a record whose root ends later lets it go at the next prune). No map
   * operation: its entry in {@link LocalRoots} is gone already.
   */
  public void spanEnded(LiveSpan live) {
    ContextRecord record = live.record();
    boolean current = record != null && record.key() == live;
    if (current) {
      record.forgetKey(live);
    }
    if (live.isLocalRoot()) {
      live.root().releaseIfEnded(attributes);
      if (current) {
        record.releaseEndedSource();
      }
    }
  }

  /**
   * Takes a record out of the key map: it stays resolvable by id for the timelines that refer to
   * it, but no longer holds the application's span context (and its id strings) for the seconds
   * until they are pruned. A later use of the same span interns a new record with the same link.
   */
  void forgetKey(ContextRecord record) {
    forgetKey(record, record.key());
  }

  /**
   * The mapping goes first, then the record's key (only if the mapping was still there): a capture
   * thread that found the record and then reads its key still finds the key, or finds no mapping.
   */
  private void forgetKey(ContextRecord record, Object key) {
    if (key instanceof LiveSpan) {
      record.forgetKey(key); // never in the key map: the span's next switch finds no current record
    } else if (key != null && byKey.remove(key, record)) {
      record.forgetKey(key);
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
