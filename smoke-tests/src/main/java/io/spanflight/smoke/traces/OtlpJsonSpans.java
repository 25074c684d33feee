package io.spanflight.smoke.traces;

import io.spanflight.smoke.browser.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads spans from OTLP/JSON traces: {@code {"resourceSpans": [...]}} (as the Collector's file
 * exporter writes a line) or the same wrapped in {@code {"result": ...}} (as Jaeger's
 * {@code /api/v3/traces/{id}} answers). Ids are hex, 64-bit numbers may come as strings, the span
 * kind as a number or a name. Anything that is not shaped so fails with the path to the bad field.
 */
public final class OtlpJsonSpans {
  private OtlpJsonSpans() {}

  /** Every span in {@code json}, in the order the document lists them. */
  public static List<StoredSpan> parse(String json) {
    Map<String, Object> root = object(Json.parse(json), "$");
    Object result = root.get("result");
    Map<String, Object> traces = result == null ? root : object(result, "$.result");
    List<StoredSpan> spans = new ArrayList<>();
    List<Object> resourceSpans = list(traces.get("resourceSpans"), "resourceSpans");
    for (int r = 0; r < resourceSpans.size(); r++) {
      String where = "resourceSpans[" + r + "]";
      Map<String, Object> resourceSpan = object(resourceSpans.get(r), where);
      Object resourceObject = resourceSpan.get("resource");
      Map<String, Object> resource = resourceObject == null ? Map.of()
          : attributes(object(resourceObject, where + ".resource").get("attributes"), where + ".resource");
      List<Object> scopeSpans = list(resourceSpan.get("scopeSpans"), where + ".scopeSpans");
      for (int s = 0; s < scopeSpans.size(); s++) {
        String scopeWhere = where + ".scopeSpans[" + s + "]";
        List<Object> scopeList = list(object(scopeSpans.get(s), scopeWhere).get("spans"), scopeWhere + ".spans");
        for (int i = 0; i < scopeList.size(); i++) {
          String spanWhere = scopeWhere + ".spans[" + i + "]";
          spans.add(span(object(scopeList.get(i), spanWhere), resource, spanWhere));
        }
      }
    }
    return spans;
  }

  private static StoredSpan span(Map<String, Object> span, Map<String, Object> resource, String where) {
    return new StoredSpan(hex(span.get("traceId")), hex(span.get("spanId")), hex(span.get("parentSpanId")),
        span.getOrDefault("name", "").toString(), StoredSpan.Kind.of(span.get("kind")),
        number(span.get("startTimeUnixNano"), where + ".startTimeUnixNano"),
        number(span.get("endTimeUnixNano"), where + ".endTimeUnixNano"),
        attributes(span.get("attributes"), where), resource);
  }

  /** OTLP's key-value list as a map; a key that comes twice keeps its first value. */
  private static Map<String, Object> attributes(Object keyValues, String where) {
    Map<String, Object> attributes = new LinkedHashMap<>();
    List<Object> list = list(keyValues, where + ".attributes");
    for (int i = 0; i < list.size(); i++) {
      Map<String, Object> keyValue = object(list.get(i), where + ".attributes[" + i + "]");
      Object key = keyValue.get("key");
      Object value = keyValue.get("value");
      if (key != null && value != null) {
        attributes.putIfAbsent(key.toString(), value(object(value, where + ".attributes." + key)));
      }
    }
    return attributes;
  }

  /** An AnyValue: its one field's value ({@code intValue} as a Long; an array as a List). */
  private static Object value(Map<String, Object> anyValue) {
    if (anyValue.containsKey("stringValue")) {
      return anyValue.get("stringValue").toString();
    }
    if (anyValue.containsKey("intValue")) {
      return number(anyValue.get("intValue"), "intValue");
    }
    if (anyValue.containsKey("boolValue")) {
      return Boolean.valueOf(anyValue.get("boolValue").toString());
    }
    if (anyValue.containsKey("doubleValue")) {
      return Double.valueOf(anyValue.get("doubleValue").toString());
    }
    if (anyValue.get("arrayValue") instanceof Map<?, ?> array) {
      List<Object> values = new ArrayList<>();
      list(array.get("values"), "arrayValue.values").forEach(v -> values.add(value(object(v, "arrayValue"))));
      return values;
    }
    return anyValue.isEmpty() ? "" : anyValue.values().iterator().next().toString();
  }

  private static String hex(Object id) {
    return id == null ? "" : id.toString().toLowerCase(Locale.ROOT);
  }

  /** A uint64 or int64 that proto JSON writes as a string, or a plain JSON number. */
  private static long number(Object value, String where) {
    if (value instanceof Number number) {
      return number.longValue();
    }
    if (value instanceof String text) {
      try {
        return Long.parseUnsignedLong(text);
      } catch (NumberFormatException e) {
        return Long.parseLong(text);
      }
    }
    throw new IllegalArgumentException("OTLP/JSON: " + where + " is not a number: " + value);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> object(Object value, String where) {
    if (value instanceof Map<?, ?> map) {
      return (Map<String, Object>) map;
    }
    throw new IllegalArgumentException("OTLP/JSON: " + where + " is not an object: " + value);
  }

  @SuppressWarnings("unchecked")
  private static List<Object> list(Object value, String where) {
    if (value == null) {
      return List.of();
    }
    if (value instanceof List<?> list) {
      return (List<Object>) list;
    }
    throw new IllegalArgumentException("OTLP/JSON: " + where + " is not an array: " + value);
  }
}
