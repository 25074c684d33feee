package io.spanflight.internal.registry;

import io.opentelemetry.api.trace.SpanContext;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * One interned span context: the small id that timelines store, and the ids that profiles link
 * to. Its attributes are read from its {@link LocalRoot} when asked (see {@link ContextAttributes}):
 * from the root span while it runs, kept there once it has ended, so that a span the application
 * is done with is not held for the seconds a record lives.
 *
 * <p>One record object per slot ({@link io.spanflight.internal.bridge.ContextIds#index}), used
 * again by each span the slot is handed to: a record lives for seconds, and a new object per span
 * was the largest share of what Spanflight made young collections copy; an object that stays
 * lives in the old generation and is never copied again. While it stands for a span it does not
 * change (except {@link #lastEpoch} and the attribute and filter caches); {@link ContextRegistry}
 * retires it and defines it anew only when no timeline and no open {@link ReadWindow} can still
 * refer to the span it stood for.
 *
 * <p>The two references that change with each span (its key, and where its attributes come
 * from) are not fields of the record but two neighbouring elements of its table page's
 * {@link RecordTable reference array}: the record is old and those objects young, and G1 marks
 * the card of every old object a young reference is stored into, then scans each marked card at
 * the next young collection. Spread over the records, nearly every span marked a card of its own;
 * in the dense array, slots handed out one after another share a card (128 references to a card
 * of 512 bytes). For the same reason a define stores no reference that has not changed.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class ContextRecord {
  /** The id it stands for, written last when it is defined; {@link ContextRegistry#NO_CONTEXT} when retired. */
  private volatile int id;
  /**
   * The page's reference array: at {@link #keyAt} the interned key, so that pruning can remove
   * the record in O(1), null once the record has left the key map (a later use of the same span
   * interns a new record); at {@code keyAt + 1} where the attributes come from (see
   * {@link #spanAttributes()}).
   */
  private final AtomicReferenceArray<Object> refs;
  private final int keyAt;
  /**
   * The trace (two halves) and the span samples link to (this one, or its local root in the
   * Grafana mode), as plain fields rather than a {@link SpanLink} of their own: every object a
   * record holds is one more for young collections to copy.
   */
  private long traceIdHigh;
  private long traceIdLow;
  private long linkSpanId;
  /** This span's own id. */
  private long spanId;
  private boolean sampled;
  private final ContextAttributes attributes;
  /** User-defined entries ({key, value...}), after the span's attributes. */
  private String[] userPairs = ContextAttributes.NO_PAIRS;
  private boolean hasSpan;

  /** Per context filter: 0 not evaluated yet, 1 keep, 2 drop. JFR consumer thread only. */
  private byte[] filterResults;
  /** Which {@code SampleFilters} the results are of (the filters can change at run time). */
  private int filterGeneration;

  /** The registry epoch in which the capture path last used this record (plain field, racy by design). */
  int lastEpoch;

  /**
   * A record for a slot, retired until {@link #define defined}.
   *
   * @param refs the slot's page of references, of which the record uses {@code keyAt} and {@code keyAt + 1}
   */
  ContextRecord(ContextAttributes attributes, AtomicReferenceArray<Object> refs, int keyAt) {
    this.attributes = attributes;
    this.refs = refs;
    this.keyAt = keyAt;
  }

  /**
   * Makes this record (new, or retired and no longer referred to) stand for a span context. The
   * id is written last, so a thread that reads the id through the record table sees the rest.
   *
   * @param linkTo the span profiles link to: the span itself, or its local root in the Grafana
   *     mode (same trace)
   * @param localRoot the span's local root, or null when unknown: where its attributes are read
   *     (if any are configured), and its trace id's halves, parsed once per local root
   */
  void define(int id, Object key, SpanContext spanContext, SpanContext linkTo, LocalRoot localRoot, UserEntries user,
      int epoch) {
    this.hasSpan = spanContext.isValid();
    String[] pairs = user == null ? ContextAttributes.NO_PAIRS : user.pairs();
    if (userPairs != pairs) {
      userPairs = pairs; // only when it changes: any reference stored into an old object marks its card
    }
    LocalRoot root = hasSpan ? localRoot : null;
    String traceId = spanContext.getTraceId();
    if (root != null && root.sharesTraceId(traceId)) {
      this.traceIdHigh = root.traceIdHigh(); // parsed once per local root, not once per span
      this.traceIdLow = root.traceIdLow();
    } else {
      this.traceIdHigh = SpanLink.parseHex(traceId, 0);
      this.traceIdLow = SpanLink.parseHex(traceId, 16);
    }
    this.spanId = SpanLink.parseHex(spanContext.getSpanId(), 0);
    this.linkSpanId = linkTo == spanContext ? spanId : SpanLink.parseHex(linkTo.getSpanId(), 0);
    this.sampled = spanContext.isSampled();
    // Release stores, not volatile ones (a full fence each, per span on the request thread): the
    // id's volatile write below publishes them to any reader that reads the id first.
    refs.setRelease(keyAt + 1, attributes.keys().isEmpty() ? null : root);
    if (filterResults != null) {
      java.util.Arrays.fill(filterResults, (byte) 0);
    }
    this.lastEpoch = epoch;
    refs.setRelease(keyAt, key);
    this.id = id;
  }

  /** Stops standing for its span: the id resolves to nothing from now on. */
  void retire() {
    releaseEndedSource();
    id = ContextRegistry.NO_CONTEXT;
  }

  /**
   * Lets go of what the retired record still holds of its span, so an idle slot keeps no
   * application object alive. Only once nothing can read the record any more.
   */
  void clear() {
    refs.set(keyAt + 1, null);
    if (userPairs != ContextAttributes.NO_PAIRS) {
      userPairs = ContextAttributes.NO_PAIRS;
    }
  }

  /** The interned key, or null once the record has left the key map. */
  Object key() {
    return refs.get(keyAt);
  }

  /** Takes the key away if it is still {@code expected} (the record may have been defined anew). */
  void forgetKey(Object expected) {
    refs.compareAndSet(keyAt, expected, null);
  }

  /**
   * Where the attributes come from: the {@link LocalRoot} while the root runs (shared by all
   * records of its spans, it lets the root span go when the root ends), the root's attributes once
   * it has ended ({@code String[]}, shared by equal records), or null (none known, or no attributes
   * configured). The record lets its local root go too, at its span's end or the next prune, so
   * that no young collection has to keep it for the record. Switched by one compare-and-set from
   * that local root: a thread that read it, was preempted, and finds the record defined anew
   * changes nothing.
   */
  private Object spanAttributes() {
    return refs.get(keyAt + 1);
  }

  public int id() {
    return id;
  }

  /** False for a context made of user-defined entries only: samples in it get no link. */
  public boolean hasSpan() {
    return hasSpan;
  }

  /** The trace id's first 8 bytes, big-endian (the link's trace id too: a local root shares its span's trace). */
  public long traceIdHigh() {
    return traceIdHigh;
  }

  /** The trace id's last 8 bytes, big-endian. */
  public long traceIdLow() {
    return traceIdLow;
  }

  /**
   * This span's own id as a number (its 8 bytes, big-endian, read as an unsigned long): what the
   * native record stores, and the key of the per-span cost table.
   */
  public long spanIdNumber() {
    return spanId;
  }

  /** 16 bytes, a new array on each call. */
  public byte[] traceId() {
    return SpanLink.traceIdBytes(traceIdHigh, traceIdLow);
  }

  /** 8 bytes, a new array on each call. */
  public byte[] spanId() {
    return SpanLink.bytesOf(spanId);
  }

  /**
   * The span profile samples link to; records that link to the same span have equal links. A new
   * small object each call (for the profile dictionary, which keeps one per linked span).
   */
  public SpanLink link() {
    return new SpanLink(traceIdHigh, traceIdLow, linkSpanId);
  }

  /**
   * {@link #link()}'s span id (the span itself, or its local root in the Grafana mode), for a table
   * that keeps links as plain numbers with {@link #traceIdHigh()} and {@link #traceIdLow()}.
   */
  public long linkSpanId() {
    return linkSpanId;
  }

  /**
   * The context's attributes now, as {key, value, key, value...}: the configured span attributes
   * of its local root, then the user-defined entries. Filters and exported samples use them.
   */
  public String[] attributePairs() {
    String[] spanPairs = spanPairs();
    if (userPairs.length == 0) {
      return spanPairs;
    }
    String[] all = java.util.Arrays.copyOf(spanPairs, spanPairs.length + userPairs.length);
    System.arraycopy(userPairs, 0, all, spanPairs.length, userPairs.length);
    return all;
  }

  /** The local root's attributes: read while it runs, kept once it has ended. */
  private String[] spanPairs() {
    Object state = spanAttributes();
    if (state instanceof String[] kept) {
      return kept;
    }
    if (state == null) {
      return ContextAttributes.NO_PAIRS;
    }
    LocalRoot root = (LocalRoot) state;
    String[] pairs = root.pairs(attributes);
    if (root.hasEnded()) {
      refs.compareAndSet(keyAt + 1, root, pairs);
    }
    return pairs;
  }

  /**
   * At span end (any thread) and pruning: if the local root has ended, keeps its attributes and
   * lets the local root (and through it, the root span) go.
   */
  void releaseEndedSource() {
    if (spanAttributes() instanceof LocalRoot root) {
      root.releaseIfEnded(attributes);
      if (root.hasEnded()) {
        spanPairs();
      }
    }
  }

  /** {@link #attributePairs()} as a map. */
  public Map<String, String> attributes() {
    String[] pairs = attributePairs();
    Map<String, String> map = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      map.put(pairs[i], pairs[i + 1]);
    }
    return map;
  }

  /** The attributes packed for the OTEP-4947 record, as they are now. */
  ContextAttributes.Packed recordAttributes() {
    if (userPairs.length == 0 && spanAttributes() instanceof LocalRoot root) {
      return attributes.recordBytes(root);
    }
    return attributes.recordBytes(attributePairs());
  }

  /**
   * A filter's cached answer for this context: 0 (not evaluated), 1 (keep) or 2 (drop); 0 for any
   * answer cached under another {@code generation} of the filters.
   */
  public int cachedFilterResult(int generation, int filter) {
    return generation == filterGeneration && filterResults != null && filter < filterResults.length
        ? filterResults[filter] : 0;
  }

  /** Caches a filter's answer under the filters' {@code generation}, forgetting those of any other. */
  public void cacheFilterResult(int generation, int filter, int result) {
    if (generation != filterGeneration) {
      if (filterResults != null) {
        java.util.Arrays.fill(filterResults, (byte) 0);
      }
      filterGeneration = generation;
    }
    if (filterResults == null || filter >= filterResults.length) {
      filterResults = filterResults == null ? new byte[filter + 1] : java.util.Arrays.copyOf(filterResults, filter + 1);
    }
    filterResults[filter] = (byte) result;
  }

  public String traceIdHex() {
    return SpanLink.hex(traceIdHigh) + SpanLink.hex(traceIdLow);
  }

  public String spanIdHex() {
    return SpanLink.hex(spanId);
  }

  public boolean sampled() {
    return sampled;
  }

  @Override
  public String toString() {
    return "ContextRecord{" + id + " trace=" + traceIdHex() + " span=" + spanIdHex() + "}";
  }
}
