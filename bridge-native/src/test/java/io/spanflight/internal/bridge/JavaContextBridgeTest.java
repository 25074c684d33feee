package io.spanflight.internal.bridge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class JavaContextBridgeTest {

  private static final class ListSink implements TimelineSink {
    final List<String> events = new ArrayList<>();

    @Override
    public void switched(long javaThreadId, long nanoTime, int contextId) {
      events.add(javaThreadId + ":" + contextId);
    }

    @Override
    public void lost(long javaThreadId, long count) {
      events.add(javaThreadId + ":lost" + count);
    }

    @Override
    public void threadEnded(long javaThreadId) {
      events.add(javaThreadId + ":ended");
    }
  }

  @Test
  @SuppressWarnings("deprecation")
  void keysEntriesByJavaThreadAndRetiresEndedThreads() throws Exception {
    JavaContextBridge bridge = new JavaContextBridge(16);
    Thread worker =
        new Thread(
            () -> {
              bridge.switchTo(5);
              bridge.switchTo(0);
            });
    worker.start();
    worker.join();
    bridge.switchTo(9);

    ListSink sink = new ListSink();
    bridge.drain(sink);

    long w = worker.getId();
    long me = Thread.currentThread().getId();
    assertThat(sink.events).containsSubsequence(w + ":5", w + ":0", w + ":ended");
    assertThat(sink.events).contains(me + ":9");
    assertThat(bridge.ringCount()).isEqualTo(1);
  }

  @Test
  void refusesCapacityThatIsNotAPowerOfTwo() {
    assertThatThrownBy(() -> new JavaContextBridge(1000))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("power of two");
  }
}
