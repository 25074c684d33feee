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

  @Test
  void clearedStacksKeepTheirTablesForTheNextStacks() {
    ConstantStore store = new ConstantStore();
    int[] frames = new int[64];
    fill(store, frames, 0);
    long grown = store.capacity();
    int generation = store.generation();

    store.clearStacks();

    assertThat(store.stackEntries()).isZero();
    assertThat(store.generation()).isEqualTo(generation + 1);
    assertThat(store.capacity()).as("kept for the stacks that come next").isEqualTo(grown);
    fill(store, frames, 1_000_000); // as many other stacks: no growth
    assertThat(store.capacity()).isEqualTo(grown);
    assertThat(store.stackLength(store.stack(frames, frames.length))).isEqualTo(64);
  }

  /** 20 000 distinct stacks of 64 frames (more than a million ints), the first frame from {@code first}. */
  private static void fill(ConstantStore store, int[] frames, int first) {
    for (int stack = 0; stack < 20_000; stack++) {
      frames[0] = first + stack;
      store.stack(frames, frames.length);
    }
  }
}
