package io.spanflight.internal.bridge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class JavaContextBridgeTest {

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

    RecordingSink sink = new RecordingSink();
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
