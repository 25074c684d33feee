package io.spanflight.internal.filter;

import io.spanflight.internal.registry.ContextRecord;
import java.util.Map;

/**
 * A parsed context filter: decides from the context a sample was taken in (null: no span)
 * whether the sample is kept. Written as an expression, see {@link ContextFilterParser}.
 *
 * <p>Not API: internal to Spanflight.
 */
@FunctionalInterface
public interface ContextFilter {

  boolean matches(ContextRecord context);

  /** The attributes of a context that {@code hasKey}/{@code hasEntry} look at. */
  static Map<String, String> attributesOf(ContextRecord context) {
    return context == null ? Map.of() : context.attributes();
  }
}
