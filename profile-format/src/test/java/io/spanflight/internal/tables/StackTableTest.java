package io.spanflight.internal.tables;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Stacks interned into flat arrays: equal stacks share an index, and nothing is mixed up. */
class StackTableTest {
  private final StackTable table = new StackTable();

  @Test
  void equalStacksShareAnIndexAndPrefixesAreTheirOwnStacks() {
    int[] scratch = {7, 8, 9, 99};
    int full = table.intern(scratch, 3);
    int prefix = table.intern(scratch, 2);
    scratch[0] = 1; // the table copied what it keeps
    int again = table.intern(new int[] {7, 8, 9}, 3);
    int empty = table.intern(new int[0], 0);

    assertThat(again).isEqualTo(full);
    assertThat(prefix).isNotEqualTo(full);
    assertThat(empty).isNotIn(full, prefix);
    assertThat(table.size()).isEqualTo(3);
    assertThat(table.copy(full, new int[0])).containsExactly(7, 8, 9);
    assertThat(table.length(prefix)).isEqualTo(2);
    assertThat(table.location(prefix, 1)).isEqualTo(8);
    assertThat(table.length(empty)).isZero();
  }

  @Test
  void thousandsOfStacksKeepTheirIndexesThroughGrowthAndAClearStartsOver() {
    Random random = new Random(42);
    List<int[]> stacks = new ArrayList<>();
    for (int i = 0; i < 5_000; i++) {
      int[] stack = new int[1 + random.nextInt(70)];
      for (int j = 0; j < stack.length; j++) {
        stack[j] = random.nextInt(50); // few values: many stacks share prefixes and hashes collide
      }
      stacks.add(stack);
    }
    List<Integer> indexes = new ArrayList<>();
    for (int[] stack : stacks) {
      indexes.add(table.intern(stack, stack.length));
    }
    for (int i = 0; i < stacks.size(); i++) {
      int[] stack = stacks.get(i);
      assertThat(table.intern(stack.clone(), stack.length)).isEqualTo(indexes.get(i));
      assertThat(table.copy(indexes.get(i), new int[1])).startsWith(stack).hasSizeGreaterThanOrEqualTo(stack.length);
      assertThat(table.length(indexes.get(i))).isEqualTo(stack.length);
    }

    table.clear();

    assertThat(table.size()).isZero();
    assertThat(table.intern(stacks.get(4_999), stacks.get(4_999).length)).isZero();
    int[] first = stacks.get(0);
    assertThat(table.intern(first, first.length)).isEqualTo(Arrays.equals(first, stacks.get(4_999)) ? 0 : 1);
  }

  @Test
  void aClearAfterASmallUseLetsABurstsArraysGoAndTheTableStillInterns() {
    Random random = new Random(7);
    for (int i = 0; i < 20_000; i++) {
      table.intern(new int[] {i, random.nextInt(), random.nextInt(), random.nextInt()}, 4);
    }
    table.clear(); // right after the burst: it may come again, the arrays stay
    assertThat(table.locationCapacity()).isGreaterThanOrEqualTo(80_000);
    int small = table.intern(new int[] {1, 2, 3}, 3);
    table.clear(); // after a use that needed a few ints
    assertThat(table.locationCapacity()).isEqualTo(1024);

    int again = table.intern(new int[] {1, 2, 3}, 3);
    assertThat(again).isEqualTo(small).isZero();
    for (int i = 0; i < 3_000; i++) {
      assertThat(table.intern(new int[] {i, -i}, 2)).isEqualTo(i + 1);
    }
    assertThat(table.intern(new int[] {1, 2, 3}, 3)).isZero();
    assertThat(table.intern(new int[] {2_999, -2_999}, 2)).isEqualTo(3_000);
  }
}
