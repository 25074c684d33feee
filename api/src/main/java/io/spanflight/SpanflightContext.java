package io.spanflight;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A small, immutable set of string entries (a request's endpoint, tenant, job...) that Spanflight
 * attaches to every profile sample taken while it is current.
 *
 * <pre>{@code
 * try (ContextScope scope = SpanflightContext.current().with("tenant", tenantId).makeCurrent()) {
 *   handle(request); // samples taken here, and in work this request hands to executors, carry tenant
 * }
 * }</pre>
 *
 * <p>The entries live in the OpenTelemetry context, so they follow the work wherever the
 * OpenTelemetry agent propagates context (executors, {@code CompletableFuture}, virtual threads...).
 * A context can be captured on one thread ({@link #current()}) and installed on another ({@link
 * #makeCurrent()}); installing it keeps that thread's current span. Without the OpenTelemetry agent
 * and Spanflight, the entries are kept per thread and nothing is recorded.
 *
 * <p>Limits (those of the OpenTelemetry thread-context record): at most {@value #MAX_KEYS}
 * distinct keys in the process; a key or value at most {@value #MAX_VALUE_BYTES} bytes of UTF-8;
 * all entries of one context at most {@value #MAX_ENTRY_BYTES} bytes, counting two bytes per entry
 * plus its value. An entry over a limit is refused: when Java assertions are enabled for the
 * calling class ({@code -ea}, as in development and tests) {@link #with} throws {@link
 * IllegalArgumentException} naming the limit; otherwise the entry is left out and counted ({@link
 * #refusedEntries()}), never breaking the caller.
 */
public final class SpanflightContext {
  /** Distinct keys the process may use (the thread record refers to a key by a one-byte index). */
  public static final int MAX_KEYS = 256;
  /** Longest key or value, in bytes of UTF-8. */
  public static final int MAX_VALUE_BYTES = 255;
  /** Room for one context's entries in the 640-byte thread record: 2 bytes per entry + its value. */
  public static final int MAX_ENTRY_BYTES = 612;

  private static final SpanflightContext EMPTY = new SpanflightContext(new String[0]);
  private static final AtomicLong refused = new AtomicLong();
  private static final StackWalker callers = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);
  private static final ThreadLocal<String[]> withoutAgent = new ThreadLocal<>();

  /** Set by Spanflight (when this class is loaded from its bootstrap jar): reads the current entries. */
  private static volatile Supplier<String[]> currentEntries;
  /** Set by Spanflight: installs entries in the current OpenTelemetry context. */
  private static volatile Function<String[], AutoCloseable> attachEntries;

  /** {key, value, key, value...}, keys unique. */
  private final String[] pairs;

  private SpanflightContext(String[] pairs) {
    this.pairs = pairs;
  }

  /** A context without entries. */
  public static SpanflightContext empty() {
    return EMPTY;
  }

  /** The entries current on this thread (empty when there are none). */
  public static SpanflightContext current() {
    Supplier<String[]> reader = currentEntries;
    String[] entries = reader != null ? readQuietly(reader) : withoutAgent.get();
    return entries == null || entries.length == 0 ? EMPTY : new SpanflightContext(entries);
  }

  /**
   * This context plus {@code key = value} (replacing an entry with the same key). A null value
   * removes the key. An entry over a limit is refused (see the class description).
   */
  public SpanflightContext with(String key, String value) {
    if (key == null || key.isEmpty()) {
      return refuse("a key must not be null or empty");
    }
    int existing = indexOf(key);
    if (value == null) {
      return existing < 0 ? this : new SpanflightContext(without(existing));
    }
    if (utf8Length(key) > MAX_VALUE_BYTES || utf8Length(value) > MAX_VALUE_BYTES) {
      return refuse("key '" + abbreviate(key) + "': keys and values are limited to " + MAX_VALUE_BYTES
          + " bytes of UTF-8");
    }
    String[] next = existing < 0 ? Arrays.copyOf(pairs, pairs.length + 2) : pairs.clone();
    int at = existing < 0 ? pairs.length : existing;
    next[at] = key;
    next[at + 1] = value;
    if (entryBytes(next) > MAX_ENTRY_BYTES) {
      return refuse("adding '" + abbreviate(key) + "' makes the context's entries exceed " + MAX_ENTRY_BYTES
          + " bytes (2 per entry plus its value)");
    }
    return new SpanflightContext(next);
  }

  /** The value of {@code key}, or null. */
  public String get(String key) {
    int index = indexOf(key);
    return index < 0 ? null : pairs[index + 1];
  }

  /** The entries, in the order they were added. */
  public Map<String, String> asMap() {
    Map<String, String> map = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      map.put(pairs[i], pairs[i + 1]);
    }
    return Collections.unmodifiableMap(map);
  }

  /**
   * Installs this context on the calling thread (its entries replace the current ones; the
   * current span stays) until the returned scope is closed.
   */
  public ContextScope makeCurrent() {
    Function<String[], AutoCloseable> attach = attachEntries;
    if (attach != null) {
      try {
        AutoCloseable scope = attach.apply(pairs.clone());
        return () -> closeQuietly(scope);
      } catch (RuntimeException | LinkageError e) {
        return () -> {}; // never break the caller; the entries are simply not recorded
      }
    }
    String[] previous = withoutAgent.get();
    withoutAgent.set(pairs);
    return () -> withoutAgent.set(previous);
  }

  /** Entries refused because they exceeded a limit (with assertions disabled). */
  public static long refusedEntries() {
    return refused.get();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof SpanflightContext && asMap().equals(((SpanflightContext) other).asMap());
  }

  @Override
  public int hashCode() {
    return asMap().hashCode();
  }

  @Override
  public String toString() {
    return "SpanflightContext" + asMap();
  }

  private SpanflightContext refuse(String reason) {
    if (assertionsEnabledAtCallSite()) {
      throw new IllegalArgumentException("Spanflight context entry refused: " + reason);
    }
    refused.incrementAndGet();
    return this;
  }

  private int indexOf(String key) {
    for (int i = 0; i < pairs.length; i += 2) {
      if (pairs[i].equals(key)) {
        return i;
      }
    }
    return -1;
  }

  private String[] without(int index) {
    String[] next = new String[pairs.length - 2];
    System.arraycopy(pairs, 0, next, 0, index);
    System.arraycopy(pairs, index + 2, next, index, pairs.length - index - 2);
    return next;
  }

  private static int entryBytes(String[] pairs) {
    int bytes = 0;
    for (int i = 0; i < pairs.length; i += 2) {
      bytes += 2 + utf8Length(pairs[i + 1]);
    }
    return bytes;
  }

  private static int utf8Length(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length;
  }

  private static String abbreviate(String key) {
    return key.length() <= 40 ? key : key.substring(0, 40) + "...";
  }

  private static String[] readQuietly(Supplier<String[]> reader) {
    try {
      return reader.get();
    } catch (RuntimeException | LinkageError e) {
      return null;
    }
  }

  private static void closeQuietly(AutoCloseable scope) {
    try {
      scope.close();
    } catch (Exception | LinkageError ignored) {
      // closing a scope must never break the caller
    }
  }

  /** Whether the class that called into this one runs with assertions enabled (development). */
  private static boolean assertionsEnabledAtCallSite() {
    return callers.walk(
        frames -> frames.map(StackWalker.StackFrame::getDeclaringClass)
            .filter(c -> c != SpanflightContext.class)
            .findFirst()
            .map(Class::desiredAssertionStatus)
            .orElse(false));
  }
}
