package io.spanflight.smoke.app.propagation;

import io.opentelemetry.instrumentation.annotations.WithSpan;

/**
 * Child spans inside the SERVER span, opened by the agent for {@code @WithSpan} methods: {@code
 * nested.outer} burns, calls {@code nested.inner} (which burns), and burns again after the inner
 * span has closed. Each piece of work must land on the innermost span open at that moment.
 */
final class NestedScenario implements Scenario {
  @Override
  public String name() {
    return "nested";
  }

  @Override
  public long handle(int id, long millis) {
    return outer(id, Scenario.chunk(millis));
  }

  @WithSpan("nested.outer")
  static long outer(int id, long chunkMillis) {
    long acc = RequestTag.burn(id, Role.OUTER, chunkMillis);
    acc += inner(id, chunkMillis);
    return acc + RequestTag.burn(id, Role.OUTER, chunkMillis);
  }

  @WithSpan("nested.inner")
  static long inner(int id, long chunkMillis) {
    return RequestTag.burn(id, Role.INNER, 2 * chunkMillis);
  }
}
