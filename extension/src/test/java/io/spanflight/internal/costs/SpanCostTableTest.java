package io.spanflight.internal.costs;

import static org.assertj.core.api.Assertions.assertThat;

import io.spanflight.internal.format.CostKind;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SpanCostTableTest {
  private final long[] into = new long[SpanCostTable.WIDTH];

  @Test
  void countsAndTotalsPerKindUntilTaken() {
    SpanCostTable table = new SpanCostTable(100);
    table.add(7, CostKind.CPU, 20_000_000, 1);
    table.add(7, CostKind.CPU, 20_000_000, 2);
    table.add(7, CostKind.LOCK, 35_000_000, 3);
    table.add(8, CostKind.ALLOCATION, 4096, 3);

    table.take(7, into);
    assertThat(CostAttributes.count(into, CostKind.CPU)).isEqualTo(2);
    assertThat(CostAttributes.total(into, CostKind.CPU)).isEqualTo(40_000_000);
    assertThat(CostAttributes.total(into, CostKind.LOCK)).isEqualTo(35_000_000);
    assertThat(CostAttributes.total(into, CostKind.ALLOCATION)).isZero();
    assertThat(table.size()).isEqualTo(1);

    table.take(7, into);
    assertThat(into).containsOnly(0L);
  }

  @Test
  void agreesWithAMapUnderRandomAddsTakesAndCollisions() {
    SpanCostTable table = new SpanCostTable(200);
    Map<Long, Long> oracle = new HashMap<>();
    Random random = new Random(42);
    for (int i = 0; i < 50_000; i++) {
      long id = 1 + random.nextInt(150); // few keys in a small table: long probe runs, many shifts
      if (random.nextInt(3) == 0) {
        table.take(id, into);
        assertThat(CostAttributes.total(into, CostKind.PARK)).as("span %d", id).isEqualTo(oracle.getOrDefault(id, 0L));
        oracle.remove(id);
      } else {
        table.add(id, CostKind.PARK, i, i);
        oracle.merge(id, (long) i, Long::sum);
      }
      assertThat(table.size()).isEqualTo(oracle.size());
    }
  }

  @Test
  void whenFullNewSpansAreNotCountedAndTheTimeIsNoted() {
    SpanCostTable table = new SpanCostTable(100);
    for (long id = 1; id <= 100; id++) {
      table.add(id, CostKind.CPU, 1, 10);
    }
    assertThat(table.lastOverflowNanos()).isEqualTo(Long.MIN_VALUE);
    table.add(1, CostKind.CPU, 1, 11); // known span: still counted
    table.add(101, CostKind.CPU, 1, 12);

    assertThat(table.overflowEvents()).isEqualTo(1);
    assertThat(table.lastOverflowNanos()).isEqualTo(12);
    table.take(1, into);
    assertThat(CostAttributes.count(into, CostKind.CPU)).isEqualTo(2);
  }

  @Test
  void expiresEntriesNotAddedToSince() {
    SpanCostTable table = new SpanCostTable(100);
    for (long id = 1; id <= 60; id++) {
      table.add(id, CostKind.FILE, id, id); // touched at time = id
    }
    assertThat(table.expire(31)).isEqualTo(30);
    assertThat(table.size()).isEqualTo(30);
    table.take(45, into);
    assertThat(CostAttributes.total(into, CostKind.FILE)).isEqualTo(45);
    table.take(5, into);
    assertThat(CostAttributes.total(into, CostKind.FILE)).isZero();
  }
}
