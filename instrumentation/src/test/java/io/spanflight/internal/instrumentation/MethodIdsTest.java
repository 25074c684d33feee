package io.spanflight.internal.instrumentation;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Method ids: stable per method, capped, the excess named (a few) and counted. */
class MethodIdsTest {
  @Test
  void aMethodKeepsItsIdAndTheExcessIsNamedOnce() {
    MethodIds ids = new MethodIds(2);
    assertThat(ids.idOf("a.A", "m", "()V")).isZero();
    assertThat(ids.idOf("a.A", "m", "(J)V")).isEqualTo(1);
    assertThat(ids.idOf("a.A", "m", "()V")).isZero();
    assertThat(ids.name(1)).containsExactly("a.A", "m", "(J)V");
    assertThat(ids.takeRefused()).isNull();

    for (int i = 0; i < 10; i++) {
      assertThat(ids.idOf("b.B", "m" + i, "()V")).isEqualTo(-1);
    }
    String refused = ids.takeRefused();
    assertThat(refused).startsWith("10 method(s), among them b.B::m0()V, b.B::m1()V");
    assertThat(refused.split("b\\.B::")).hasSize(1 + MethodIds.NAMED_EXCESS);
    assertThat(ids.takeRefused()).isNull();
    assertThat(ids.size()).isEqualTo(2);
  }
}
