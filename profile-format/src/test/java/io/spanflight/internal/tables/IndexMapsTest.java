package io.spanflight.internal.tables;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The dictionary's index map answers as a HashMap would, through growth, collisions and clears. */
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
}
