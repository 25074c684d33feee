package io.spanflight.internal.profile;

import static org.assertj.core.api.Assertions.assertThat;

import io.spanflight.internal.registry.SpanLink;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LinkTableTest {
  @Test
  void eachSpanGetsOneIndexInFirstSeenOrderAcrossGrowthAndClears() {
    LinkTable table = new LinkTable();
    SplittableRandom random = new SplittableRandom(4719);
    for (int interval = 0; interval < 3; interval++) {
      int spans = interval == 1 ? 5_000 : 40; // a burst, then a quiet interval: the arrays shrink back
      List<SpanLink> distinct = new ArrayList<>();
      for (int i = 0; i < spans; i++) {
        // Spans of a few traces, as the samples of an interval are.
        distinct.add(new SpanLink(7L * (i % 9), random.nextLong(), random.nextLong()));
      }
      Map<SpanLink, Integer> expected = new HashMap<>();
      for (int sample = 0; sample < 4 * spans; sample++) {
        SpanLink link = distinct.get(random.nextInt(spans));
        int index = table.intern(link.traceIdHigh(), link.traceIdLow(), link.spanId());
        Integer first = expected.putIfAbsent(link, expected.size() + 1);
        assertThat(index).isEqualTo(first == null ? expected.size() : first);
      }
      assertThat(table.size()).isEqualTo(expected.size() + 1);
      expected.forEach((link, index) -> assertThat(table.get(index)).isEqualTo(link));
      table.clear();
      assertThat(table.size()).as("only the no-span row").isEqualTo(1);
    }
  }
}
