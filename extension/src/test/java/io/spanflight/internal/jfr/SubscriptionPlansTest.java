package io.spanflight.internal.jfr;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.sdk.autoconfigure.spi.internal.DefaultConfigProperties;
import io.spanflight.internal.config.SourceSettings;
import io.spanflight.internal.config.SpanflightConfig;
import io.spanflight.internal.jfr.chunk.ChunkReader;
import io.spanflight.internal.jfr.chunk.ConstantStore;
import java.io.InputStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What Spanflight's reader asks each field to be (see {@link io.spanflight.internal.jfr.chunk.Expected}) is what the
 * JDK declares: with every source on, the committed JDK 17 and JDK 25 recordings (whose metadata
 * declares every event type of the JDK that wrote them) pass the plan check, and their samples are
 * read.
 */
class SubscriptionPlansTest {
  @ParameterizedTest
  @ValueSource(strings = {"jdk17.jfr", "jdk25.jfr"})
  void everySourcesFieldsAreWhatTheJdkDeclares(String fixture) throws Exception {
    Map<String, String> properties = new HashMap<>();
    for (String source : List.of(SourceSettings.CPU, SourceSettings.CPU_TIME, SourceSettings.NATIVE,
        SourceSettings.ALLOCATION, SourceSettings.LOCK, SourceSettings.PARK, SourceSettings.SOCKET,
        SourceSettings.FILE)) {
      properties.put("otel.spanflight." + source + ".enabled", "true");
    }
    SpanflightConfig config = SpanflightConfig.read(DefaultConfigProperties.createFromMap(properties));
    assertThat(config.errors()).isEmpty();
    List<JfrSource> sources = JfrSources.of(config.sources(), JfrSources.availableEventTypes());
    assertThat(sources).hasSizeGreaterThanOrEqualTo(10);
    ReaderEvents.Subscriptions subscriptions = ReaderEvents.Subscriptions.of(sources);
    long[] samples = new long[1];
    ChunkReader reader = subscriptions.reader(new ConstantStore(), (subscription, values) -> {
      if (subscriptions.isSample(subscription)) {
        samples[0]++;
      }
    });
    byte[] bytes;
    try (InputStream in = ChunkReader.class.getResourceAsStream(fixture)) {
      bytes = in.readAllBytes();
    }

    reader.read(bytes, bytes.length);

    assertThat(samples[0]).as("execution and allocation samples").isGreaterThan(20);
  }
}
