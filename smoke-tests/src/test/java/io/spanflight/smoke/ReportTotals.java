package io.spanflight.smoke;

import io.spanflight.smoke.browser.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What our own report ({@code java -jar spanflight.jar report}) totals, read from the JSON in the
 * HTML it wrote: per sample type ({@code type/unit}), the sum over every endpoint (all samples),
 * over the spans (the linked samples) and per {@code http.route}.
 */
record ReportTotals(Map<String, Long> all, Map<String, Long> linked, Map<String, Map<String, Long>> byRoute) {
  private static final String DATA_START = "<script type=\"application/json\" id=\"spanflight-data\">";

  @SuppressWarnings("unchecked")
  static ReportTotals read(Path html) throws Exception {
    String page = Files.readString(html, StandardCharsets.UTF_8);
    int start = page.indexOf(DATA_START) + DATA_START.length();
    Map<String, Object> data = (Map<String, Object>) Json.parse(page.substring(start, page.indexOf("</script>", start)));
    Map<Integer, String> types = new TreeMap<>();
    for (Object type : (List<Object>) data.get("types")) {
      Map<String, Object> t = (Map<String, Object>) type;
      types.put(((Number) t.get("i")).intValue(), t.get("type") + "/" + t.get("unit"));
    }
    Map<String, Long> all = new TreeMap<>();
    Map<String, Map<String, Long>> byRoute = new TreeMap<>();
    for (Object endpoint : (List<Object>) data.get("endpoints")) {
      Map<String, Object> e = (Map<String, Object>) endpoint;
      String name = (String) e.get("name");
      List<Object> perType = (List<Object>) e.get("data");
      types.forEach((i, type) -> {
        long value = sum(perType.get(i));
        all.merge(type, value, Long::sum);
        // "GET /checkout": the method and the route; "(no endpoint)" and "GET (no route)" have none
        String route = name.startsWith("(") ? name : name.substring(name.indexOf(' ') + 1);
        if (value != 0 && !route.startsWith("(")) {
          byRoute.computeIfAbsent(type, k -> new TreeMap<>()).merge(route, value, Long::sum);
        }
      });
    }
    Map<String, Long> linked = new TreeMap<>();
    for (Object span : (List<Object>) data.get("spans")) {
      List<Object> perType = (List<Object>) ((List<Object>) span).get(3);
      types.forEach((i, type) -> linked.merge(type, sum(perType.get(i)), Long::sum));
    }
    return new ReportTotals(all, linked, byRoute);
  }

  /** The values of a {@code [leaf node, value, ...]} list (null: none). */
  @SuppressWarnings("unchecked")
  private static long sum(Object weights) {
    long total = 0;
    if (weights != null) {
      List<Object> pairs = (List<Object>) weights;
      for (int i = 1; i < pairs.size(); i += 2) {
        total += ((Number) pairs.get(i)).longValue();
      }
    }
    return total;
  }
}
