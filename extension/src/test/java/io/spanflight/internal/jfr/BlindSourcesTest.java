package io.spanflight.internal.jfr;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.sdk.autoconfigure.spi.internal.DefaultConfigProperties;
import io.spanflight.internal.LogLines;
import io.spanflight.internal.config.SpanflightConfig;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.logging.Level;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A watched source that delivers nothing for three intervals while the threads work is reported
 * once (a warning naming source, event and cause; counted), and once more, as seeing again, when
 * its events flow; idle threads or a source that delivers make no line.
 */
class BlindSourcesTest {
  private static final long MS = 1_000_000L;
  private final long[] events = new long[BlindSources.WATCHED.size()];
  private final long[] work = new long[2];
  private LogLines lines;
  private final BlindSources blind = new BlindSources(i -> events[i], () -> work.clone());
  private final List<JfrSource> sources = JfrSources.of(
      SpanflightConfig.read(DefaultConfigProperties.createFromMap(
          Map.of("otel.spanflight.cpu.enabled", "true", "otel.spanflight.cputime.enabled", "false",
              "otel.spanflight.alloc.enabled", "true"))).sources(),
      Set.of("jdk.ExecutionSample", "jdk.ObjectAllocationSample", "jdk.ThreadPark"), JfcCap.NONE);

  @BeforeEach
  void listen() {
    lines = LogLines.listen("io.spanflight");
    blind.runStarted();
  }

  @AfterEach
  void stopListening() {
    lines.close();
  }

  private void interval(long cpuNanos, long allocatedBytes, long cpuEvents, long allocEvents) {
    work[0] = cpuNanos;
    work[1] = allocatedBytes;
    events[0] += cpuEvents;
    events[2] += allocEvents;
    blind.intervalEnded(sources, event -> "the cause for " + event);
  }

  @Test
  void silentForThreeBusyIntervalsIsOneWarningThenOneLineWhenItSeesAgain() {
    interval(2000 * MS, 0, 0, 5);
    interval(2000 * MS, 0, 0, 5);
    assertThat(lines.records()).as("two intervals are not enough").isEmpty();
    interval(2000 * MS, 0, 0, 5);
    assertThat(lines.records()).singleElement().satisfies(line -> {
      assertThat(line.getLevel()).isEqualTo(Level.WARNING);
      assertThat(line.getMessage()).contains("cpu source is blind", "no jdk.ExecutionSample event for 3 export intervals",
          "used 6000 ms of CPU", "likely cause: the cause for jdk.ExecutionSample");
    });
    assertThat(blind.blindings("cpu")).isEqualTo(1);
    assertThat(blind.blindings("alloc")).isZero();
    interval(2000 * MS, 0, 0, 5);
    interval(2000 * MS, 0, 0, 5);
    assertThat(lines.records()).as("one line while it stays blind").hasSize(1);
    interval(2000 * MS, 0, 7, 5);
    assertThat(lines.records()).hasSize(2);
    assertThat(lines.records().get(1).getLevel()).isEqualTo(Level.INFO);
    assertThat(lines.records().get(1).getMessage()).contains("cpu source sees again: jdk.ExecutionSample events arrive");
    assertThat(blind.blindings()).isEqualTo(1);
  }

  @Test
  void allocationIsWatchedAgainstBytesAllocated() {
    for (int i = 0; i < 3; i++) {
      interval(0, 30L << 20, 0, 0);
    }
    assertThat(lines.records()).singleElement()
        .satisfies(line -> assertThat(line.getMessage()).contains("alloc source is blind", "allocated 90 MB"));
    assertThat(blind.blindings("alloc")).isEqualTo(1);
    assertThat(blind.blindings("cpu")).as("no CPU used: silence proves nothing").isZero();
  }

  @Test
  void idleThreadsOrDeliveringSourcesMakeNoLine() {
    for (int i = 0; i < 6; i++) {
      interval(100 * MS, 1L << 20, 0, 0); // 300 ms of CPU in three intervals: under 50 periods of 20 ms
    }
    for (int i = 0; i < 6; i++) {
      interval(5000 * MS, 100L << 20, 1, 1);
    }
    assertThat(lines.records()).isEmpty();
    assertThat(blind.blindings()).isZero();
  }

  @Test
  void aNewRunStartsItsWindowEmpty() {
    interval(2000 * MS, 0, 0, 1);
    interval(2000 * MS, 0, 0, 1);
    blind.runStarted();
    interval(2000 * MS, 0, 0, 1);
    interval(2000 * MS, 0, 0, 1);
    assertThat(lines.records()).isEmpty();
    interval(2000 * MS, 0, 0, 1);
    assertThat(lines.records()).hasSize(1);
  }
}
