package io.spanflight.internal.jfr.chunk;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ConstantStoreTest {
  private static void fill(ConstantStore store, int stacks) {
    int[] frames = new int[64];
    for (int stack = 0; stack < stacks; stack++) {
      frames[0] = stack; // distinct stacks of 64 frames
      store.stack(frames, frames.length);
    }
  }

  @Test
  void aClearedStoreKeepsItsTablesForTheNextFillAndLetsGoOnceTheFillsAreSmall() {
    ConstantStore store = new ConstantStore();
    long empty = store.capacity();
    fill(store, 20_000); // more than a million ints
    long grown = store.capacity();
    assertThat(grown).isGreaterThan(1_000_000);

    store.clear();

    assertThat(store.capacity()).as("kept: the next fill grows no copies").isEqualTo(grown);
    assertThat(store.entries()).isZero();
    assertThat(store.string("a")).as("usable again, from index 0").isZero();
    assertThat(store.stackEntries()).isZero();

    fill(store, 1); // a fill that needs far less
    store.clear();

    assertThat(store.capacity()).as("memory follows the use down").isEqualTo(empty);
  }

  @Test
  void aStackInternedAfterAClearIsTheOneGivenNotOneFromBefore() {
    ConstantStore store = new ConstantStore();
    int first = store.stack(new int[] {1, 2, 3}, 3);
    store.clearStacks();
    int again = store.stack(new int[] {4, 5}, 2);
    assertThat(again).isEqualTo(first);
    assertThat(store.stackLength(again)).isEqualTo(2);
    assertThat(store.frame(again, 0)).isEqualTo(4);
    assertThat(store.stack(new int[] {1, 2, 3}, 3)).as("interned anew, not found in the old slots").isNotEqualTo(again);
  }
}
