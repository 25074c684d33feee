package io.spanflight.smoke.app.propagation;

/** Which span a piece of request work belongs to; each has its own {@link SpanWork} method. */
public enum Role {
  /** The SERVER span the agent opens for the request. */
  SERVER,
  /** The {@code @WithSpan("nested.outer")} span of the nested scenario. */
  OUTER,
  /** The {@code @WithSpan("nested.inner")} span inside it. */
  INNER;

  long burn(long millis) {
    switch (this) {
      case OUTER:
        return SpanWork.burnInOuterSpan(millis);
      case INNER:
        return SpanWork.burnInInnerSpan(millis);
      default:
        return SpanWork.burnInServerSpan(millis);
    }
  }
}
