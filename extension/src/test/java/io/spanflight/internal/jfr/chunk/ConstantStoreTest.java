package io.spanflight.internal.jfr.chunk;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ConstantStoreTest {
  @Test
  void aClearedStoreLetsGoOfTheTablesItGrew() {
    ConstantStore store = new ConstantStore();
    long empty = store.capacity();
    int[] frames = new int[64];
    for (int stack = 0; stack < 20_000; stack++) {
      frames[0] = stack; // 20 000 distinct stacks of 64 frames: more than a million ints
      store.stack(frames, frames.length);
    }
    assertThat(store.capacity()).isGreaterThan(1_000_000);

    store.clear();

    assertThat(store.capacity()).isEqualTo(empty);
    assertThat(store.entries()).isZero();
    assertThat(store.string("a")).as("usable again, from index 0").isZero();
  }
}
