package io.spanflight.internal.profile;

import static org.assertj.core.api.Assertions.assertThat;

import io.spanflight.internal.format.LongIntMap;
import io.spanflight.internal.format.LongList;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The dictionary's index maps answer as a HashMap would, through growth, collisions and clears. */
class IndexMapsTest {
  /** Equal hash codes for every 16 values: long probe chains. */
  private record Colliding(int value) {
    @Override
    public int hashCode() {
      return value / 16;
    }
  }

  @Test
  void anIndexMapAgreesWithAHashMap() {
    Random random = new Random(42);
    IndexMap<Colliding> map = new IndexMap<>();
    for (int round = 0; round < 4; round++) {
      Map<Colliding, Integer> expected = new HashMap<>();
      for (int i = 0; i < (round == 1 ? 30 : 20_000); i++) { // a small use lets the arrays shrink
        Colliding key = new Colliding(random.nextInt(5_000));
        Integer known = expected.get(key);
        assertThat(map.get(key)).isEqualTo(known == null ? IndexMap.ABSENT : known);
        if (known == null) {
          expected.put(key, expected.size());
          map.put(key, expected.size() - 1);
        }
      }
      map.clear(); // and again, in the same arrays, or shorter ones after the small round
      assertThat(map.get(new Colliding(1))).isEqualTo(IndexMap.ABSENT);
    }
  }

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
