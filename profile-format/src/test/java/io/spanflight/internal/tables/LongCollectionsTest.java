package io.spanflight.internal.tables;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The primitive collections answer as a HashMap or a list would, through growth and clears. */
class LongCollectionsTest {
  @Test
  void aLongIntMapAgreesWithAHashMapForAnyKeyThroughClears() {
    Random random = new Random(7);
    LongIntMap map = new LongIntMap();
    for (int round = 0; round < 4; round++) {
      Map<Long, Integer> expected = new HashMap<>();
      for (int i = 0; i < (round == 1 ? 30 : 20_000); i++) { // a small use lets the arrays shrink
        long key = random.nextBoolean() ? random.nextInt(3_000) : ((long) random.nextInt(50) << 32) - random.nextInt(3);
        Integer known = expected.get(key);
        assertThat(map.get(key)).as("key %d", key).isEqualTo(known == null ? LongIntMap.ABSENT : known);
        if (known == null) {
          expected.put(key, expected.size());
          map.put(key, expected.size() - 1);
        }
      }
      map.clear();
      assertThat(map.get(0L)).isEqualTo(LongIntMap.ABSENT);
    }
  }

  @Test
  void aLongListGrowsAndClears() {
    LongList list = new LongList();
    for (long i = 0; i < 1000; i++) {
      list.add(i * 3);
    }
    assertThat(list.size()).isEqualTo(1000);
    assertThat(list.get(999)).isEqualTo(2997L);
    list.clear();
    assertThat(list.size()).isZero();
    list.add(5);
    list.clear(); // after a small use: a shorter array, still a list
    list.add(6);
    assertThat(list.get(0)).isEqualTo(6L);
    assertThat(list.size()).isEqualTo(1);
  }
}
