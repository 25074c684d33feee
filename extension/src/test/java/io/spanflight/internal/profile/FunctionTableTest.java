package io.spanflight.internal.profile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class FunctionTableTest {
  @Test
  void eachFunctionKeepsItsThreeNamesAcrossGrowthAndAClearStartsAgainAtZero() {
    FunctionTable table = new FunctionTable();
    for (int i = 0; i < 1_000; i++) { // past the first array
      assertThat(table.add(3 * i, 3 * i + 1, 3 * i + 2)).isEqualTo(i);
    }
    assertThat(table.name(999)).isEqualTo(2_997);
    assertThat(table.systemName(999)).isEqualTo(2_998);
    assertThat(table.fileName(0)).isEqualTo(2);

    table.clear();

    assertThat(table.size()).isZero();
    assertThatThrownBy(() -> table.name(0)).as("no name from the interval before").isInstanceOf(IndexOutOfBoundsException.class);
    assertThat(table.add(7, 8, 9)).isZero();
    assertThat(table.systemName(0)).isEqualTo(8);
  }
}
