package io.spanflight.smoke.app.propagation;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The request's chunks run as tasks on a pool that all requests share: fixed, cached or
 * scheduled (with a delay per chunk); the handler thread waits for them.
 */
final class ExecutorServiceScenario implements Scenario {
  private final String name;
  private final ExecutorService pool;

  private ExecutorServiceScenario(String name, ExecutorService pool) {
    this.name = name;
    this.pool = pool;
  }

  static Scenario fixed() {
    return new ExecutorServiceScenario("fixed-pool",
        CheckedPools.fixed(2, "fixed-pool"));
  }

  static Scenario cached() {
    return new ExecutorServiceScenario("cached-pool",
        CheckedPools.cached("cached-pool"));
  }

  static Scenario scheduled() {
    return new ExecutorServiceScenario("scheduled",
        CheckedPools.scheduled(2, "scheduled"));
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public long handle(int id, long millis) throws Exception {
    List<Future<Long>> chunks = new ArrayList<>();
    for (int i = 0; i < CHUNKS; i++) {
      Callable<Long> work = () -> RequestTag.burn(id, Role.SERVER, Scenario.chunk(millis));
      chunks.add(pool instanceof ScheduledExecutorService
          ? ((ScheduledExecutorService) pool).schedule(work, i, TimeUnit.MILLISECONDS)
          : pool.submit(work));
    }
    long acc = 0;
    for (Future<Long> chunk : chunks) {
      acc += chunk.get();
    }
    return acc;
  }
}
