package io.spanflight.internal.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.spanflight.internal.TestBridge;
import io.spanflight.internal.registry.ContextRecord;
import io.spanflight.internal.registry.ContextRegistry;
import org.junit.jupiter.api.Test;

class ContextFilterParserTest {
  private final ContextRegistry registry = new ContextRegistry(new TestBridge());
  private final ContextRecord sampled = record(1, TraceFlags.getSampled());
  private final ContextRecord unsampled = record(2, TraceFlags.getDefault());

  private ContextRecord record(int n, TraceFlags flags) {
    SpanContext sc = SpanContext.create(String.format("%032x", n), String.format("%016x", n), flags, TraceState.getDefault());
    return registry.resolve(registry.idOf(sc));
  }

  private static boolean eval(String filter, ContextRecord context) {
    return ContextFilterParser.parse(filter).matches(context);
  }

  @Test
  void atoms() {
    assertThat(eval("hasContext", sampled)).isTrue();
    assertThat(eval("hasContext", null)).isFalse();
    assertThat(eval("hasNoContext", null)).isTrue();
    assertThat(eval("sampled", sampled)).isTrue();
    assertThat(eval("sampled", unsampled)).isFalse();
    // context records carry no attributes yet (user-defined keys are not there)
    assertThat(eval("hasKey(tenant)", sampled)).isFalse();
    assertThat(eval("!hasEntry(tenant=acme)", sampled)).isTrue();
  }

  @Test
  void operatorsAndParentheses() {
    assertThat(eval("hasNoContext || sampled", unsampled)).isFalse();
    assertThat(eval("hasNoContext || sampled", null)).isTrue();
    assertThat(eval("hasContext && !sampled", unsampled)).isTrue();
    assertThat(eval(" !( hasContext && sampled ) ", sampled)).isFalse();
    assertThat(eval("hasNoContext || hasContext && sampled", unsampled)).isFalse(); // && binds tighter
  }

  @Test
  void errorsSayWhereAndWhatWasExpected() {
    assertThatThrownBy(() -> ContextFilterParser.parse("hasKey("))
        .hasMessage("at position 7: expected a key, found the end");
    assertThatThrownBy(() -> ContextFilterParser.parse("hasContext & sampled"))
        .hasMessage("at position 11: expected '&&', '||' or the end, found '&'");
    assertThatThrownBy(() -> ContextFilterParser.parse("hasEntry(k)"))
        .hasMessage("at position 10: expected '=', found ')'");
    assertThatThrownBy(() -> ContextFilterParser.parse("spanned"))
        .hasMessageStartingWith("at position 0: expected hasContext, hasNoContext");
  }

  @Test
  void sampleFiltersCacheTheAnswerPerContextAndPreferTheSourceFilter() {
    int[] evaluations = {0};
    ContextFilter countingSampled =
        context -> {
          evaluations[0]++;
          return context != null && context.sampled();
        };
    SampleFilters filters =
        new SampleFilters(countingSampled, java.util.Map.of("alloc", ContextFilterParser.parse("hasContext")));
    int before = evaluations[0]; // the constructor asks once about "no context"

    assertThat(filters.keep("cpu", sampled, false)).isTrue();
    assertThat(filters.keep("cpu", sampled, false)).isTrue();
    assertThat(filters.keep("cpu", unsampled, false)).isFalse();
    assertThat(evaluations[0] - before).isEqualTo(2);

    assertThat(filters.keep("alloc", unsampled, false)).isTrue();
    assertThat(filters.keep("cpu", null, true)).as("unknown context").isFalse();
    assertThat(SampleFilters.NONE.keep("cpu", null, true)).isTrue();
  }
}
