package io.spanflight.demo;

import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The SERVER spans the agent wrote to the service's log with {@code otel.traces.exporter=logging-otlp}
 * (one OTLP/JSON ResourceSpans per line): span id to {@code url.path}.
 */
final class LoggedServerSpans {
  private static final Pattern SPAN_START = Pattern.compile("\\{\"traceId\":\"[0-9a-f]{32}\",\"spanId\":\"([0-9a-f]{16})\"");
  private static final Pattern SERVER_KIND = Pattern.compile("\"kind\":2[,}]");
  private static final Pattern URL_PATH = Pattern.compile("\\{\"key\":\"url\\.path\",\"value\":\\{\"stringValue\":\"([^\"]*)\"");

  private LoggedServerSpans() {}

  static Map<String, String> pathBySpanId(String log) {
    Map<String, String> paths = new HashMap<>();
    Matcher start = SPAN_START.matcher(log);
    if (!start.find()) {
      return paths;
    }
    while (true) {
      String spanId = start.group(1);
      int from = start.end();
      boolean more = start.find();
      String span = log.substring(from, more ? start.start() : log.length());
      Matcher path = URL_PATH.matcher(span);
      if (SERVER_KIND.matcher(span).find() && path.find()) {
        paths.put(spanId, path.group(1));
      }
      if (!more) {
        return paths;
      }
    }
  }
}
