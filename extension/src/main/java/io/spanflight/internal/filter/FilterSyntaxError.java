package io.spanflight.internal.filter;

/**
 * A context filter that does not parse; the message says where and what was expected.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class FilterSyntaxError extends RuntimeException {
  private static final long serialVersionUID = 1L;

  FilterSyntaxError(String message) {
    super(message);
  }
}
