package io.spanflight.smoke.app.propagation;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** Thread factories for the scenarios' pools: daemon threads named after the pool. */
final class Daemons {
  private Daemons() {}

  static ThreadFactory named(String pool) {
    AtomicInteger count = new AtomicInteger();
    return runnable -> {
      Thread thread = new Thread(runnable, pool + "-" + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }
}
