package io.spanflight.internal.registry;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class IntQueueTest {
  @Test
  void firstInFirstOutAcrossGrowthAndWrapAround() {
    IntQueue queue = new IntQueue();
    for (int i = 1; i <= 50; i++) {
      queue.add(i);
    }
    for (int i = 1; i <= 40; i++) {
      assertThat(queue.poll(0)).isEqualTo(i);
    }
    for (int i = 51; i <= 300; i++) { // wraps around, then grows twice
      queue.add(i);
    }
    assertThat(queue.size()).isEqualTo(260);
    for (int i = 41; i <= 300; i++) {
      assertThat(queue.poll(0)).isEqualTo(i);
    }
    assertThat(queue.poll(-1)).isEqualTo(-1);
  }

  @Test
  void newestBeyondTheKeptCountLeavesFirstAcrossWrapAround() {
    IntQueue queue = new IntQueue();
    for (int i = 1; i <= 60; i++) {
      queue.add(i);
    }
    for (int i = 1; i <= 50; i++) {
      queue.poll(0);
    }
    for (int i = 61; i <= 100; i++) { // 51..100: wraps around the 64 slots
      queue.add(i);
    }
    assertThat(queue.pollNewestBeyond(48, 0)).isEqualTo(100);
    assertThat(queue.pollNewestBeyond(48, 0)).isEqualTo(99);
    assertThat(queue.pollNewestBeyond(48, 0)).isEqualTo(0); // 48 left: none beyond
    assertThat(queue.poll(0)).isEqualTo(51);
  }
}
