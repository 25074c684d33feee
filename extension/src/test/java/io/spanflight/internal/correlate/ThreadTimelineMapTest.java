package io.spanflight.internal.correlate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ThreadTimelineMapTest {
  private final StepArrays arrays = new StepArrays(1 << 20);

  @Test
  void answersAsAHashMapDoesThroughGrowthRemovalsAndShrinking() {
    ThreadTimelineMap map = new ThreadTimelineMap();
    Map<Long, ThreadTimeline> expected = new HashMap<>();
    SplittableRandom random = new SplittableRandom(4947);
    for (int round = 0; round < 200_000; round++) {
      // Bursts of new threads (ids counting up, as the JVM's do), and removals that empty the map again.
      boolean growing = (round / 20_000) % 2 == 0;
      long id = random.nextInt(5_000) + (random.nextBoolean() ? 0 : 1L << 40);
      int op = random.nextInt(20);
      if (op < (growing ? 10 : 1)) {
        ThreadTimeline timeline = new ThreadTimeline(arrays, 0);
        map.put(id, timeline);
        expected.put(id, timeline);
      } else if (op < 16) {
        map.remove(id);
        expected.remove(id);
      } else {
        assertThat(map.get(id)).isSameAs(expected.get(id));
      }
      assertThat(map.size()).isEqualTo(expected.size());
    }
    for (Map.Entry<Long, ThreadTimeline> entry : expected.entrySet()) {
      assertThat(map.get(entry.getKey())).isSameAs(entry.getValue());
    }
    assertThat(java.util.Arrays.stream(map.threadIds()).boxed().toList()).containsExactlyInAnyOrderElementsOf(expected.keySet());

    // The burst is over: all but ten go, and the table halves on the way down.
    expected.keySet().stream().skip(10).toList().forEach(id -> {
      map.remove(id);
      expected.remove(id);
    });
    assertThat(map.size()).isEqualTo(10);
    expected.forEach((id, timeline) -> assertThat(map.get(id)).isSameAs(timeline));
    assertThat(java.util.Arrays.stream(map.threadIds()).boxed().toList()).containsExactlyInAnyOrderElementsOf(expected.keySet());
  }

  @Test
  void idsThatShareAHomeSlotAreFoundAfterOneOfThemIsRemoved() {
    ThreadTimelineMap map = new ThreadTimelineMap();
    ThreadTimeline[] timelines = new ThreadTimeline[40];
    for (int i = 0; i < timelines.length; i++) {
      timelines[i] = new ThreadTimeline(arrays, 0);
      map.put(i * 64L, timelines[i]); // runs of neighbours in a 64-slot table
    }
    for (int i = 0; i < timelines.length; i += 3) {
      map.remove(i * 64L);
    }
    for (int i = 0; i < timelines.length; i++) {
      assertThat(map.get(i * 64L)).isSameAs(i % 3 == 0 ? null : timelines[i]);
    }
  }
}
