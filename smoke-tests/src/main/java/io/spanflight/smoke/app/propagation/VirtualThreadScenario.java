package io.spanflight.smoke.app.propagation;

import io.opentelemetry.context.Context;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The request's work on virtual threads started with {@code Thread.ofVirtual().start(...)} and
 * joined; each burns, parks and burns again.
 *
 * <p>The OpenTelemetry agent carries context through executors, not into threads an application
 * starts itself (platform or virtual: {@code Span.current()} is empty there), so the task is
 * wrapped with {@code Context.current().wrap(...)}, as OpenTelemetry documents for such threads.
 * Started bare, its samples have no span and Spanflight rightly leaves them unlinked.
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
      Runnable work = () -> acc.addAndGet(VirtualThreads.burnParkBurn(id, chunk));
      threads[i] = VirtualThreads.start(Context.current().wrap(work));
    }
    for (Thread thread : threads) {
      thread.join();
    }
    return acc.get();
  }
}
