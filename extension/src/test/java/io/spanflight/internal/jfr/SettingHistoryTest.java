package io.spanflight.internal.jfr;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SettingHistoryTest {

  @Test
  void eachTimeGetsTheValueInForceThen() {
    SettingHistory history = new SettingHistory();
    assertThat(history.valueAt(5)).isNull();
    history.set(100, "20000000 ns");
    history.set(200, "10000000 ns"); // someone started a denser recording
    history.set(300, "20000000 ns"); // and stopped it
    assertThat(history.valueAt(50)).as("before the first report: the oldest").isEqualTo("20000000 ns");
    assertThat(history.valueAt(100)).isEqualTo("20000000 ns");
    assertThat(history.valueAt(199)).isEqualTo("20000000 ns");
    assertThat(history.valueAt(200)).isEqualTo("10000000 ns");
    assertThat(history.valueAt(299)).isEqualTo("10000000 ns");
    assertThat(history.valueAt(1_000)).isEqualTo("20000000 ns");
    assertThat(history.current()).isEqualTo("20000000 ns");
  }

  @Test
  void repeatsAtEveryChunkAreNotChanges() {
    SettingHistory history = new SettingHistory();
    history.set(100, "10 ms");
    history.set(200, "10 ms");
    history.set(300, "10 ms");
    assertThat(history.changes()).isEqualTo(1);
    assertThat(history.valueAt(150)).isEqualTo("10 ms");
  }

  @Test
  void keepsTheNewestChanges() {
    SettingHistory history = new SettingHistory();
    for (int i = 0; i < 100; i++) {
      history.set(i * 10L, (i % 2 == 0 ? 20 : 10) + " ms");
    }
    assertThat(history.changes()).isEqualTo(SettingHistory.CAPACITY);
    assertThat(history.valueAt(995)).isEqualTo("10 ms"); // i = 99, set at 990
    assertThat(history.valueAt(985)).isEqualTo("20 ms"); // i = 98, set at 980
    assertThat(history.valueAt(0)).as("older than what is kept: the oldest kept").isEqualTo((100 - SettingHistory.CAPACITY) % 2 == 0 ? "20 ms" : "10 ms");
  }
}
