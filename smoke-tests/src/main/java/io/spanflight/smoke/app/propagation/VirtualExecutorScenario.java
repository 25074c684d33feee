package io.spanflight.smoke.app.propagation;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * The request's work as tasks of its own {@code Executors.newVirtualThreadPerTaskExecutor()}
 * (try-with-resources, as the JDK recommends); each task burns, parks and burns again, so the
 * virtual threads of all requests share the few carriers and move between them.
 */
final class VirtualExecutorScenario implements Scenario {
  @Override
  public String name() {
    return "virtual-executor";
  }

  @Override
  public int minFeature() {
    return 21;
  }

  @Override
  public long handle(int id, long millis) throws Exception {
    long chunk = Scenario.chunk(millis);
    ExecutorService executor = VirtualThreads.newPerTaskExecutor();
    try {
      List<Future<Long>> tasks = new ArrayList<>();
      for (int i = 0; i < CHUNKS / 2; i++) {
        tasks.add(executor.submit(() -> VirtualThreads.burnParkBurn(id, chunk)));
      }
      long acc = 0;
      for (Future<Long> task : tasks) {
        acc += task.get();
      }
      return acc;
    } finally {
      executor.shutdown(); // ExecutorService.close() is Java 19+; this and the get()s above do the same
    }
  }
}
