package io.spanflight.internal.jfr;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JfrValuesTest {

  @Test
  void durationsAsJfrWritesThem() {
    assertThat(JfrValues.nanos("20000000 ns")).isEqualTo(20_000_000L); // jdk.ActiveSetting
    assertThat(JfrValues.nanos("20 ms")).isEqualTo(20_000_000L); // .jfc files, our own values
    assertThat(JfrValues.nanos("10ms")).isEqualTo(10_000_000L);
    assertThat(JfrValues.nanos("1 s")).isEqualTo(1_000_000_000L);
    assertThat(JfrValues.nanos("0 ns")).isZero();
    assertThat(JfrValues.nanos("everyChunk")).isEqualTo(-1);
    assertThat(JfrValues.nanos("150/s")).isEqualTo(-1);
    assertThat(JfrValues.nanos(null)).isEqualTo(-1);
  }

  @Test
  void rates() {
    assertThat(JfrValues.perSecond("150/s")).isEqualTo(150.0);
    assertThat(JfrValues.perSecond("10/ms")).isEqualTo(10_000.0);
    assertThat(JfrValues.perSecond("20 ms")).isEqualTo(-1);
  }

  @Test
  void describedForPeople() {
    assertThat(JfrValues.describe(10_000_000L)).isEqualTo("10 ms");
    assertThat(JfrValues.describe(1_500_000L)).isEqualTo("1500 us");
    assertThat(JfrValues.describe(7L)).isEqualTo("7 ns");
  }
}
