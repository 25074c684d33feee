package io.spanflight.internal.costs;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The join feeds the cost table only once a span exporter takes its entries, in either order. */
class SpanCostLinkTest {
  private final SpanCostTable table = new SpanCostTable(100);
  private final List<SpanCostTable> fed = new ArrayList<>();

  private void connect(SpanCostLink link) {
    link.connect(table, () -> 0, () -> true, () -> {}, fed::add);
  }

  @Test
  void profilerFirstThenExporter() {
    SpanCostLink link = new SpanCostLink();
    connect(link);
    assertThat(fed).as("no exporter takes the entries yet").isEmpty();
    link.exporterWrapped();
    assertThat(fed).containsExactly(table);
  }

  @Test
  void exporterFirstThenProfiler() {
    SpanCostLink link = new SpanCostLink();
    link.exporterWrapped();
    assertThat(link.active()).isFalse();
    connect(link);
    assertThat(fed).containsExactly(table);
    assertThat(link.active()).isTrue();
  }

  @Test
  void withoutAnExporterNothingIsFed() {
    SpanCostLink link = new SpanCostLink();
    connect(link);
    assertThat(fed).isEmpty();
  }
}
