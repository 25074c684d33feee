package io.spanflight.smoke.app.propagation;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveTask;

/**
 * The request's chunks as a {@link RecursiveTask} tree on a shared two-thread {@link ForkJoinPool}
 * ({@code fork()}, {@code join()}, work stealing), submitted with {@code invoke}.
 */
final class ForkJoinScenario implements Scenario {
  private final ForkJoinPool pool = new ForkJoinPool(2);

  @Override
  public String name() {
    return "forkjoin";
  }

  @Override
  public long handle(int id, long millis) {
    return pool.invoke(new Chunks(id, CHUNKS, Scenario.chunk(millis)));
  }

  /** {@code count} chunks: split in halves until one is left, which burns. */
  private static final class Chunks extends RecursiveTask<Long> {
    private static final long serialVersionUID = 1L;
    private final int id;
    private final int count;
    private final long chunkMillis;

    Chunks(int id, int count, long chunkMillis) {
      this.id = id;
      this.count = count;
      this.chunkMillis = chunkMillis;
    }

    @Override
    protected Long compute() {
      if (count == 1) {
        return RequestTag.burn(id, Role.SERVER, chunkMillis);
      }
      Chunks left = new Chunks(id, count / 2, chunkMillis);
      left.fork();
      long right = new Chunks(id, count - count / 2, chunkMillis).compute();
      return right + left.join();
    }
  }
}
