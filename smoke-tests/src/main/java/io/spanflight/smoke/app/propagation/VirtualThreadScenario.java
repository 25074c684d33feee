package io.spanflight.smoke.app.propagation;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The request's work on virtual threads started with {@code Thread.ofVirtual().start(...)} and
 * joined; each burns, parks and burns again.
 */
final class VirtualThreadScenario implements Scenario {
  @Override
  public String name() {
    return "virtual-thread";
  }

  @Override
  public int minFeature() {
    return 21;
  }

  @Override
  public long handle(int id, long millis) throws InterruptedException {
    long chunk = Scenario.chunk(millis);
    AtomicLong acc = new AtomicLong();
    Thread[] threads = new Thread[CHUNKS / 2];
    for (int i = 0; i < threads.length; i++) {
      threads[i] = VirtualThreads.start(() -> acc.addAndGet(VirtualThreads.burnParkBurn(id, chunk)));
    }
    for (Thread thread : threads) {
      thread.join();
    }
    return acc.get();
  }
}
