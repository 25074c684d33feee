package io.spanflight.internal.threads;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class OwnThreadsTest {
  @Test
  @SuppressWarnings("deprecation") // Thread.getId, as OwnThreads uses it (JDK 17)
  void threadsMadeHereAreDaemonsAndKnownByIdOthersAreNot() {
    Thread own = OwnThreads.newDaemon(() -> {}, "spanflight-test");
    Thread other = new Thread(() -> {}, "application");

    assertThat(own.isDaemon()).isTrue();
    assertThat(own.getName()).isEqualTo("spanflight-test");
    assertThat(OwnThreads.contains(own.getId())).isTrue();
    assertThat(OwnThreads.contains(other.getId())).isFalse();
    assertThat(OwnThreads.factory("spanflight-pool").newThread(() -> {}))
        .satisfies(t -> assertThat(OwnThreads.contains(t.getId())).isTrue());
  }

  @Test
  void endedThreadsAreForgottenOnceThereAreMany() throws Exception {
    List<Thread> ended = new ArrayList<>();
    for (int i = 0; i < OwnThreads.PURGE_ABOVE + 8; i++) {
      Thread t = OwnThreads.newDaemon(() -> {}, "spanflight-short-" + i);
      t.start();
      t.join();
      ended.add(t);
    }
    OwnThreads.newDaemon(() -> {}, "spanflight-next");

    assertThat(OwnThreads.size()).isLessThan(OwnThreads.PURGE_ABOVE);
  }
}
