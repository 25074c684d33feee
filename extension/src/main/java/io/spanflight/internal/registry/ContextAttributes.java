package io.spanflight.internal.registry;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.sdk.trace.ReadableSpan;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
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
  private final Function<SpanContext, ReadableSpan> localRootSpan;
  private final AttributeKeyMap keyMap;
  private final AtomicLong droppedValues = new AtomicLong();

  /**
   * @param keys span attribute keys to copy (string or long attributes)
   * @param localRootSpan the live local-root span of a span, or null when unknown
   * @param keyMap the record's key map; the configured keys take the first indexes
   */
  public ContextAttributes(
      List<String> keys, Function<SpanContext, ReadableSpan> localRootSpan, AttributeKeyMap keyMap) {
    this.keys = List.copyOf(keys);
    this.localRootSpan = localRootSpan;
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

  /** The span whose attributes a context of {@code spanContext} reads, or null. */
  ReadableSpan sourceOf(SpanContext spanContext) {
    return keys.isEmpty() ? null : localRootSpan.apply(spanContext);
  }

  /** The current values as {key, value, key, value...}; absent attributes are left out. */
  String[] read(ReadableSpan source) {
    if (source == null) {
      return NO_PAIRS;
    }
    String[] pairs = new String[keys.size() * 2];
    int n = 0;
    for (int i = 0; i < keys.size(); i++) {
      String value = source.getAttribute(stringKeys.get(i));
      if (value == null) {
        Long number = source.getAttribute(longKeys.get(i));
        value = number == null ? null : number.toString();
      }
      if (value != null) {
        pairs[n++] = keys.get(i);
        pairs[n++] = value;
      }
    }
    return n == pairs.length ? pairs : Arrays.copyOf(pairs, n);
  }

  static final String[] NO_PAIRS = new String[0];

  /** At most this many distinct sets of values are shared; beyond, each record keeps its own. */
  static final int MAX_SHARED_PAIRS = 4096;

  /** Equal pairs, by content: most requests of a route carry the same few values. */
  private final ConcurrentHashMap<List<String>, String[]> sharedPairs = new ConcurrentHashMap<>();

  /**
   * {@code pairs}, or an equal array read before: records that keep their values for seconds
   * (after their span ended) then share one array instead of holding one each. At most {@value
   * #MAX_SHARED_PAIRS} distinct sets are kept.
   */
  String[] shared(String[] pairs) {
    if (pairs.length == 0) {
      return NO_PAIRS;
    }
    List<String> key = Arrays.asList(pairs);
    String[] known = sharedPairs.get(key);
    if (known != null) {
      return known;
    }
    if (sharedPairs.size() >= MAX_SHARED_PAIRS) {
      return pairs;
    }
    known = sharedPairs.putIfAbsent(key, pairs);
    return known != null ? known : pairs;
  }

  /** A packed set of pairs, and how many of its values were left out. */
  private record Packed(byte[] bytes, int dropped) {}

  private static final Packed NOTHING = new Packed(new byte[0], 0);

  /** Packed records by the pairs they hold: the same few sets, packed once (bounded as {@link #sharedPairs}). */
  private final ConcurrentHashMap<List<String>, Packed> packedPairs = new ConcurrentHashMap<>();

  /**
   * The pairs packed for the OTEP-4947 record: {@code {u8 key index, u8 length, utf-8 value}}
   * entries. A value longer than {@value #MAX_VALUE_BYTES} bytes, or a key the map refused, is
   * left out and counted. Equal pairs get the same array (at most {@value #MAX_SHARED_PAIRS}
   * distinct sets are kept): callers read it and never change it.
   */
  byte[] recordBytes(String[] pairs) {
    if (pairs.length == 0) {
      return NOTHING.bytes();
    }
    List<String> key = Arrays.asList(pairs);
    Packed packed = packedPairs.get(key);
    if (packed == null) {
      packed = pack(pairs);
      if (packedPairs.size() < MAX_SHARED_PAIRS) {
        packedPairs.putIfAbsent(List.of(pairs), packed);
      }
    }
    if (packed.dropped() > 0) {
      droppedValues.addAndGet(packed.dropped());
    }
    return packed.bytes();
  }

  private Packed pack(String[] pairs) {
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
    return new Packed(out, dropped);
  }

  /** Values left out of records (too long, or the key map was full). */
  public long droppedValues() {
    return droppedValues.get();
  }
}
