package io.spanflight.demo.service;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/** The decoded query string of one request, with bounded integer parameters. */
final class Query {
  private final Map<String, String> params;

  private Query(Map<String, String> params) {
    this.params = params;
  }

  static Query parse(String rawQuery) {
    Map<String, String> params = new HashMap<>();
    if (rawQuery != null && !rawQuery.isEmpty()) {
      for (String pair : rawQuery.split("&")) {
        int eq = pair.indexOf('=');
        String key = eq < 0 ? pair : pair.substring(0, eq);
        String value = eq < 0 ? "" : pair.substring(eq + 1);
        params.put(decode(key), decode(value));
      }
    }
    return new Query(params);
  }

  String param(String name, String byDefault) {
    String value = params.get(name);
    return value == null || value.isEmpty() ? byDefault : value;
  }

  /** The parameter as an int clamped to [min, max]; the default when absent. */
  int intParam(String name, int byDefault, int min, int max) {
    String value = params.get(name);
    if (value == null || value.isEmpty()) {
      return byDefault;
    }
    try {
      return Math.max(min, Math.min(max, Integer.parseInt(value)));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " must be an integer, got '" + value + "'", e);
    }
  }

  private static String decode(String s) {
    return URLDecoder.decode(s, StandardCharsets.UTF_8);
  }
}
