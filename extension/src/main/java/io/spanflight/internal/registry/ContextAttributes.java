package io.spanflight.internal.registry;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.spanflight.internal.bridge.ContextBridge;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * Which span attributes become context attributes, and where they are read: configured keys
 * (default {@code http.route} and {@code http.request.method}) taken from the local-root span of
 * the context's span. They are read when asked, so a value the application sets on the span after
 * the scope was entered still reaches later samples; the OTEP-4947 record gets the values known
 * when the context is first used ({@link #recordBytes}).
 *
 * <p>Not API: internal to Spanflight.
 */
public final class ContextAttributes {
  /** No attributes at all: no local-root lookup either. */
  public static final ContextAttributes NONE = new ContextAttributes(List.of(), span -> null, new AttributeKeyMap());

  /** The longest value the record can hold (one length byte). */
  static final int MAX_VALUE_BYTES = 255;

  private final List<String> keys;
  private final List<AttributeKey<String>> stringKeys = new ArrayList<>();
  private final List<AttributeKey<Long>> longKeys = new ArrayList<>();
  private final Function<SpanContext, LocalRoot> localRoot;
  private final AttributeKeyMap keyMap;
  private final AtomicLong droppedValues = new AtomicLong();

  /**
   * @param keys span attribute keys to copy (string or long attributes)
   * @param localRoot the local root of a live span, or null when unknown
   * @param keyMap the record's key map; the configured keys take the first indexes
   */
  public ContextAttributes(
      List<String> keys, Function<SpanContext, LocalRoot> localRoot, AttributeKeyMap keyMap) {
    this.keys = List.copyOf(keys);
    this.localRoot = localRoot;
    this.keyMap = keyMap;
    for (String key : this.keys) {
      stringKeys.add(AttributeKey.stringKey(key));
      longKeys.add(AttributeKey.longKey(key));
      keyMap.indexOf(key);
    }
  }

  public List<String> keys() {
    return keys;
  }

  public AttributeKeyMap keyMap() {
    return keyMap;
  }

  /** The local root whose attributes a context of {@code spanContext} reads, or null. */
  LocalRoot sourceOf(SpanContext spanContext) {
    return keys.isEmpty() ? null : localRoot.apply(spanContext);
  }

  /** The current values as {key, value, key, value...}; absent attributes are left out. */
  String[] read(ReadableSpan source) {
    if (source == null) {
      return NO_PAIRS;
    }
    String[] pairs = new String[keys.size() * 2];
    int n = 0;
    for (int i = 0; i < keys.size(); i++) {
      String value = value(source, i);
      if (value != null) {
        pairs[n++] = keys.get(i);
        pairs[n++] = value;
      }
    }
    return n == pairs.length ? pairs : Arrays.copyOf(pairs, n);
  }

  /** The value of the {@code i}th key on {@code source} now (a string, or a long as text), or null. */
  private String value(ReadableSpan source, int i) {
    String value = source.getAttribute(stringKeys.get(i));
    if (value == null) {
      Long number = source.getAttribute(longKeys.get(i));
      value = number == null ? null : number.toString();
    }
    return value;
  }

  /**
   * Whether {@link #read} would give {@code pairs} now, asked without allocating (a long value
   * aside): what lets a local root keep its packing while its attributes do not change.
   */
  boolean stillReads(ReadableSpan source, String[] pairs) {
    int n = 0;
    for (int i = 0; i < keys.size(); i++) {
      String value = value(source, i);
      if (value != null) {
        if (n + 2 > pairs.length || !keys.get(i).equals(pairs[n]) || !value.equals(pairs[n + 1])) {
          return false;
        }
        n += 2;
      }
    }
    return n == pairs.length;
  }

  static final String[] NO_PAIRS = new String[0];

  /** At most this many distinct sets of values are shared; beyond, each record keeps its own. */
  static final int MAX_SHARED_PAIRS = 4096;

  /**
   * A set of pairs as shared, packed for the record, how many of its values were left out, and
   * its number for the bridge ({@link ContextBridge#define}'s attribute set, or {@link
   * ContextBridge#OWN_ATTRIBUTES} for a set that is not shared).
   */
  record Packed(String[] pairs, byte[] bytes, int dropped, int set, ContextAttributes madeBy) {}

  private static final byte[] NO_BYTES = new byte[0];

  /** No attributes: no bytes, no set. */
  private static final Packed NOTHING = new Packed(NO_PAIRS, NO_BYTES, 0, ContextBridge.OWN_ATTRIBUTES, null);

  /**
   * The next shared set's number, for the whole process (the native context table is per
   * process, and a number must stand for one packed set whichever registry made it). A number
   * taken by a set that lost a race to be shared is never used; past {@link
   * ContextBridge#MAX_ATTRIBUTE_SETS}, sets are packed per context as beyond the sharing bound.
   */
  private static final AtomicInteger nextSet = new AtomicInteger();

  /**
   * Equal pairs, by content, once each: most requests of a route carry the same few values, so
   * their records share one array and one packing. At most {@value #MAX_SHARED_PAIRS} sets.
   */
  private final ConcurrentHashMap<PairsKey, Packed> sharedPairs = new ConcurrentHashMap<>();

  /**
   * A set of pairs as a map key, compared by content. Not {@code Arrays.asList}: its {@code equals}
   * makes two iterators per comparison, which on Spring PetClinic were the largest allocation in
   * Spanflight's frames (54 MB in 30 s).
   */
  private static final class PairsKey {
    private final String[] pairs;
    private final int hash;

    PairsKey(String[] pairs) {
      this.pairs = pairs;
      this.hash = Arrays.hashCode(pairs);
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof PairsKey key && hash == key.hash && Arrays.equals(pairs, key.pairs);
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }

  /**
   * The shared entry of {@code pairs} (not empty), made and packed on first sight; null when the
   * pairs are new and {@value #MAX_SHARED_PAIRS} sets are already kept.
   */
  private Packed sharedEntry(String[] pairs) {
    PairsKey key = new PairsKey(pairs);
    Packed known = sharedPairs.get(key);
    if (known != null || sharedPairs.size() >= MAX_SHARED_PAIRS) {
      return known;
    }
    int set = nextSet.getAndUpdate(n -> n < ContextBridge.MAX_ATTRIBUTE_SETS ? n + 1 : n);
    Packed made = pack(pairs, set < ContextBridge.MAX_ATTRIBUTE_SETS ? set : ContextBridge.OWN_ATTRIBUTES);
    known = sharedPairs.putIfAbsent(key, made);
    return known != null ? known : made;
  }

  /**
   * {@code pairs}, or an equal array read before: records that keep their values for seconds
   * (after their span ended) then share one array instead of holding one each. At most {@value
   * #MAX_SHARED_PAIRS} distinct sets are kept.
   */
  String[] shared(String[] pairs) {
    if (pairs.length == 0) {
      return NO_PAIRS;
    }
    Packed shared = sharedEntry(pairs);
    return shared != null ? shared.pairs() : pairs;
  }

  /**
   * The pairs packed for the OTEP-4947 record: {@code {u8 key index, u8 length, utf-8 value}}
   * entries. A value longer than {@value #MAX_VALUE_BYTES} bytes, or a key the map refused, is
   * left out and counted (once per record). Equal pairs get the same packing, made once, with one
   * set number (within the bound of {@link #shared}): callers read its bytes and never change them.
   */
  Packed recordBytes(String[] pairs) {
    return counted(packing(pairs));
  }

  /**
   * {@link #recordBytes(String[])} of a local root's attributes now: its last packing while they
   * have not changed (no array, no map lookup), else a new one that it keeps.
   */
  Packed recordBytes(LocalRoot root) {
    return counted(root.packing(this));
  }

  /** The packing of {@code pairs}, shared when it can be, with nothing counted. */
  Packed packing(String[] pairs) {
    if (pairs.length == 0) {
      return NOTHING;
    }
    Packed packed = sharedEntry(pairs);
    return packed != null ? packed : pack(pairs, ContextBridge.OWN_ATTRIBUTES); // beyond the bound: this record's own
  }

  /** Whether {@code packed} is a packing of these attributes (their keys, their key map). */
  boolean made(Packed packed) {
    return packed == NOTHING || packed.madeBy() == this;
  }

  /** Counts the values a record's packing left out (once per record). */
  private Packed counted(Packed packed) {
    if (packed.dropped() > 0) {
      droppedValues.addAndGet(packed.dropped());
    }
    return packed;
  }

  private Packed pack(String[] pairs, int set) {
    byte[][] values = new byte[pairs.length / 2][];
    int[] indexes = new int[values.length];
    int size = 0;
    int dropped = 0;
    for (int i = 0; i < values.length; i++) {
      indexes[i] = keyMap.indexOf(pairs[2 * i]);
      byte[] value = pairs[2 * i + 1].getBytes(StandardCharsets.UTF_8);
      if (indexes[i] < 0 || value.length > MAX_VALUE_BYTES) {
        dropped++;
      } else {
        values[i] = value;
        size += 2 + value.length;
      }
    }
    byte[] out = new byte[size];
    int at = 0;
    for (int i = 0; i < values.length; i++) {
      if (values[i] != null) {
        out[at++] = (byte) indexes[i];
        out[at++] = (byte) values[i].length;
        System.arraycopy(values[i], 0, out, at, values[i].length);
        at += values[i].length;
      }
    }
    return new Packed(pairs, out, dropped, set, this);
  }

  /** Values left out of records (too long, or the key map was full). */
  public long droppedValues() {
    return droppedValues.get();
  }
}
