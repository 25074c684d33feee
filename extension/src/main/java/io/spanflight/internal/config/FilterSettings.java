package io.spanflight.internal.config;

import io.spanflight.internal.filter.ContextFilter;
import io.spanflight.internal.filter.ContextFilterParser;
import io.spanflight.internal.filter.FilterSyntaxError;
import io.spanflight.internal.filter.SampleFilters;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the context filters: {@code otel.spanflight.context.filter} for every source and
 * {@code otel.spanflight.<source>.context.filter} for one source (replacing the first there).
 *
 * <p>Not API: internal to Spanflight.
 */
final class FilterSettings {
  static final String ALL = "otel.spanflight.context.filter";
  static final int MAX_LENGTH = 1024;
  private static final String EXPECTED =
      "a filter such as hasContext, hasNoContext, sampled, hasKey(k), hasEntry(k=v), combined with !, &&, || and ()";

  private FilterSettings() {}

  static SampleFilters read(Settings s, List<SourceSettings> sources, List<String> errors) {
    ContextFilter all = parse(s, ALL, errors);
    Map<String, ContextFilter> bySource = new HashMap<>();
    for (SourceSettings source : sources) {
      ContextFilter filter = parse(s, "otel.spanflight." + source.name() + ".context.filter", errors);
      if (filter != null) {
        bySource.put(source.name(), filter);
      }
    }
    return all == null && bySource.isEmpty() ? SampleFilters.NONE : new SampleFilters(all, bySource);
  }

  private static ContextFilter parse(Settings s, String key, List<String> errors) {
    String value = s.string(key, null);
    if (value == null) {
      return null;
    }
    if (value.length() > MAX_LENGTH) { // the parser recurses once per nesting level
      errors.add(new ConfigError(key, value, EXPECTED + ", at most " + MAX_LENGTH + " characters long").getMessage());
      return null;
    }
    try {
      return ContextFilterParser.parse(value);
    } catch (FilterSyntaxError e) {
      errors.add(new ConfigError(key, value, EXPECTED + "; " + e.getMessage()).getMessage());
      return null;
    }
  }
}
