package io.spanflight.internal.registry;

import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.sdk.trace.ReadableSpan;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One interned span context: the small id that timelines store, and the ids that profiles link
 * to. Immutable except for {@link #lastEpoch}, which the capture path refreshes on each use. Its
 * attributes are read from their source span when asked (see {@link ContextAttributes}) until
 * that span has ended: then they are kept and the span is let go, so that a span the application
 * is done with is not held for the seconds a record lives.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class ContextRecord {
  private final int id;
  /**
   * The interned key, so that pruning can remove the record in O(1); null once the record has
   * left the key map (unused for a while: a later use of the same span interns a new record).
   */
  volatile Object key;
  /**
   * The trace (two halves) and the span samples link to (this one, or its local root in the
   * Grafana mode), as plain fields rather than a {@link SpanLink} of their own: a record lives for
   * seconds, and every object it holds is one more for young collections to copy (on PetClinic,
   * records and their links were the largest share of what Spanflight made them copy).
   */
  private final long traceIdHigh;
  private final long traceIdLow;
  private final long linkSpanId;
  /** This span's own id. */
  private final long spanId;
  private final boolean sampled;
  private final ContextAttributes attributes;
  /** Where the attributes are read while it runs; null once it has ended and they are kept. */
  private volatile ReadableSpan attributeSource;
  /** The source span's attributes as they were when it ended (null while it runs). */
  private volatile String[] endedPairs;
  /** User-defined entries ({key, value...}), after the span's attributes. */
  private final String[] userPairs;
  private final boolean hasSpan;

  /** Per context filter: 0 not evaluated yet, 1 keep, 2 drop. JFR consumer thread only. */
  private byte[] filterResults;

  /** The registry epoch in which the capture path last used this record (plain field, racy by design). */
  int lastEpoch;

  /**
   * @param linkTo the span profiles link to: the span itself, or its local root in the Grafana
   *     mode (same trace)
   */
  ContextRecord(
      int id,
      Object key,
      SpanContext spanContext,
      SpanContext linkTo,
      ContextAttributes attributes,
      UserEntries user,
      int epoch) {
    this.id = id;
    this.key = key;
    this.hasSpan = spanContext.isValid();
    this.userPairs = user == null ? ContextAttributes.NO_PAIRS : user.pairs();
    SpanLink link = SpanLink.of(spanContext.getTraceId(), linkTo.getSpanId()); // short-lived
    this.traceIdHigh = link.traceIdHigh();
    this.traceIdLow = link.traceIdLow();
    this.linkSpanId = link.spanId();
    this.spanId = SpanLink.parseHex(spanContext.getSpanId(), 0);
    this.sampled = spanContext.isSampled();
    this.attributes = attributes;
    this.attributeSource = hasSpan ? attributes.sourceOf(spanContext) : null;
    this.lastEpoch = epoch;
  }

  public int id() {
    return id;
  }

  /** False for a context made of user-defined entries only: samples in it get no link. */
  public boolean hasSpan() {
    return hasSpan;
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

  /** The source span's attributes: read while it runs, kept once it has ended. */
  private String[] spanPairs() {
    String[] ended = endedPairs;
    if (ended != null) {
      return ended;
    }
    ReadableSpan source = attributeSource;
    boolean hasEnded = source == null || source.hasEnded(); // read before: attributes are final after
    String[] pairs = attributes.read(source);
    if (hasEnded) {
      pairs = attributes.shared(pairs);
      endedPairs = pairs;
      attributeSource = null;
    }
    return pairs;
  }

  /** For registry pruning: lets the source span go if it has ended (its attributes are kept). */
  void releaseEndedSource() {
    ReadableSpan source = attributeSource;
    if (source != null && source.hasEnded()) {
      spanPairs();
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
  byte[] recordAttributes() {
    return attributes.recordBytes(attributePairs());
  }

  /** A filter's cached answer for this context: 0 (not evaluated), 1 (keep) or 2 (drop). */
  public int cachedFilterResult(int filter) {
    return filterResults != null && filter < filterResults.length ? filterResults[filter] : 0;
  }

  public void cacheFilterResult(int filter, int result) {
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

  /** The span id as an unsigned 64-bit number (the key of the per-span cost table). */
  public long costKey() {
    return spanId;
  }

  @Override
  public String toString() {
    return "ContextRecord{" + id + " trace=" + traceIdHex() + " span=" + spanIdHex() + "}";
  }
}
