package io.spanflight.internal.profile;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The column table groups samples exactly as a map of groups in order of first sample would. */
class SampleTableTest {
  private final SampleTable table = new SampleTable();

  @Test
  void groupsSamplesByStackLinkAndAttributesInTheOrderTheyCame() {
    Random random = new Random(3);
    for (int round = 0; round < 3; round++) { // the second and third in the cleared table's arrays
      Map<List<Integer>, List<long[]>> expected = new LinkedHashMap<>();
      int samples = 5_000 + round * 20_000;
      for (int i = 0; i < samples; i++) {
        int stack = random.nextInt(300);
        int link = random.nextInt(4) == 0 ? 0 : random.nextInt(2_000);
        int attributes = random.nextInt(3);
        long time = 1_000_000L * i;
        long value = random.nextInt(1_000);
        table.add(stack, link, attributes, time, value);
        expected.computeIfAbsent(List.of(stack, link, attributes), k -> new ArrayList<>()).add(new long[] {time, value});
      }

      List<SampleTable.Group> groups = new ArrayList<>(table.groups());
      assertThat(groups).hasSize(expected.size());
      int i = 0;
      int linked = 0;
      for (Map.Entry<List<Integer>, List<long[]>> entry : expected.entrySet()) {
        SampleTable.Group group = groups.get(i++);
        assertThat(List.of(group.stack, group.link, group.attributeSet)).isEqualTo(entry.getKey());
        assertThat(group.count).isEqualTo(entry.getValue().size());
        for (int s = 0; s < group.count; s++) {
          assertThat(group.timestamps[s]).isEqualTo(entry.getValue().get(s)[0]);
          assertThat(group.values[s]).isEqualTo(entry.getValue().get(s)[1]);
        }
        linked += group.link != 0 ? group.count : 0;
      }
      assertThat(table.total()).isEqualTo(samples);
      assertThat(table.linked()).isEqualTo(linked);
      assertThat(table.minTimestamp()).isZero();
      assertThat(table.maxTimestamp()).isEqualTo(1_000_000L * (samples - 1));
      table.clear();
      assertThat(table.groups()).isEmpty();
      assertThat(table.total()).isZero();
    }
  }
}
