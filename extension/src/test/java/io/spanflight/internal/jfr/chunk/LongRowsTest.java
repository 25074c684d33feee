package io.spanflight.internal.jfr.chunk;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LongRowsTest {
  private static void fill(LongRows rows, int count) {
    for (int i = 0; i < count; i++) {
      int row = rows.add(i);
      rows.set(row, 1, -i);
    }
  }

  @Test
  void aResetWithinAChunkKeepsTheArrayAndStartsWithEmptyRows() {
    LongRows rows = new LongRows(2);
    fill(rows, 10_000); // one large checkpoint
    int grown = rows.capacity();
    rows.reset();
    fill(rows, 10); // then small ones
    rows.reset();
    assertThat(rows.capacity()).isEqualTo(grown);
    assertThat(rows.size()).isZero();
    int row = rows.add();
    assertThat(rows.get(row, 0)).isZero();
    assertThat(rows.get(row, 1)).as("a row added is all zeros, whatever was there before").isZero();
  }

  @Test
  void aClearShrinksOnlyWhenTheWholeChunkNeededMuchLess() {
    LongRows rows = new LongRows(2);
    fill(rows, 10_000);
    rows.reset();
    fill(rows, 10);
    rows.clear(); // the chunk's peak was 10 000 rows: kept
    assertThat(rows.capacity()).isGreaterThanOrEqualTo(10_000);
    fill(rows, 10);
    rows.clear(); // a chunk of 10 rows: shrunk to the first size
    assertThat(rows.capacity()).isEqualTo(256);
  }
}
