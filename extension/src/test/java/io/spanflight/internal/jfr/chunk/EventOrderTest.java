package io.spanflight.internal.jfr.chunk;

import static org.assertj.core.api.Assertions.assertThat;

import io.spanflight.internal.jfr.chunk.ChunkSamples.Sample;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class EventOrderTest {
  @TempDir Path dir;

  @Test
  void eventsComeOutByEndTimeTiesInTheOrderRead() {
    EventOrder order = new EventOrder(1);
    List<String> out = new ArrayList<>();
    long[][] added = {{50, 0}, {10, 1}, {30, 2}, {10, 3}, {20, 4}, {50, 5}, {5, 6}};
    for (long[] event : added) {
      order.add(event[0], (int) event[1] % 2, new long[] {event[1]}, (subscription, values) -> out.add("early"));
    }

    order.handOut((subscription, values) -> out.add(subscription + ":" + values[0]));

    assertThat(out).containsExactly("0:6", "1:1", "1:3", "0:4", "0:2", "0:0", "1:5");
  }

  @Test
  void aReadOfMoreThanTheBoundIsHandedOutInSortedSlices() {
    EventOrder order = new EventOrder(1);
    List<Long> out = new ArrayList<>();
    int events = EventOrder.MAX_EVENTS + 3;
    for (int i = 0; i < events; i++) {
      order.add(events - i, 0, new long[] {events - i}, (subscription, values) -> out.add(values[0]));
    }
    assertThat(out).hasSize(EventOrder.MAX_EVENTS).isSortedAccordingTo(Comparator.naturalOrder());

    order.handOut((subscription, values) -> out.add(values[0]));

    assertThat(out).hasSize(events);
    assertThat(out.subList(EventOrder.MAX_EVENTS, events)).containsExactly(1L, 2L, 3L);
  }

  @ParameterizedTest
  @ValueSource(strings = {"jdk17.jfr", "jdk25.jfr"})
  void aReaderInTimeOrderGivesTheFilesEventsSortedByTime(String fixture) throws Exception {
    Path file = ChunkFiles.fixture(fixture, dir);
    List<Sample> inFileOrder = ChunkSamples.byChunkReader(file, new ConstantStore());
    List<Sample> inTimeOrder = new ArrayList<>();

    ChunkSamples.reader(new ConstantStore(), inTimeOrder).inTimeOrder().read(file);

    List<Sample> sorted = new ArrayList<>(inFileOrder);
    sorted.sort(Comparator.comparingLong(Sample::nanos)); // stable: ties stay in file order
    assertThat(inFileOrder).as("the fixture's events are not already in time order").isNotEqualTo(sorted);
    assertThat(inTimeOrder).isEqualTo(sorted);
  }
}
