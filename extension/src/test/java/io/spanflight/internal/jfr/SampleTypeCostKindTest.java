package io.spanflight.internal.jfr;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.sdk.autoconfigure.spi.internal.DefaultConfigProperties;
import io.spanflight.internal.config.SpanflightConfig;
import io.spanflight.internal.format.CostKind;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The report reads costs from exported sample types, span costs from the JFR sources: every
 * source's sample type must map to the source's own cost kind, so that both count the same events.
 */
class SampleTypeCostKindTest {

  @Test
  void everySourcesSampleTypeHasTheSourcesCostKind() {
    SpanflightConfig config = SpanflightConfig.read(DefaultConfigProperties.createFromMap(Map.of(
        "otel.spanflight.cpu.enabled", "true",
        "otel.spanflight.cputime.enabled", "true",
        "otel.spanflight.nativemethod.enabled", "true",
        "otel.spanflight.alloc.enabled", "true",
        "otel.spanflight.methodtrace.filter", "java.lang.String::length",
        "otel.spanflight.methodtiming.filter", "java.lang.String::length")));
    List<JfrSource> sources = JfrSources.of(config.sources(), JfrSources.availableEventTypes());

    assertThat(sources).extracting(s -> s.sourceName).contains("cpu", "alloc", "lock", "park", "socket", "file");
    for (JfrSource source : sources) {
      assertThat(CostKind.ofSampleType(source.type.type()))
          .as("%s (%s, sample type %s)", source.sourceName, source.eventName, source.type.type())
          .isEqualTo(source.costKind);
    }
  }
}
