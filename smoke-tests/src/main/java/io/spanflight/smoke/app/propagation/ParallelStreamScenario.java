package io.spanflight.smoke.app.propagation;

import java.util.stream.LongStream;

/** The request's chunks as a parallel stream (the common ForkJoinPool plus the calling thread). */
final class ParallelStreamScenario implements Scenario {
  @Override
  public String name() {
    return "parallel-stream";
  }

  @Override
  public long handle(int id, long millis) {
    long chunk = Scenario.chunk(millis);
    return LongStream.range(0, CHUNKS).parallel()
        .map(i -> RequestTag.burn(id, Role.SERVER, chunk))
        .sum();
  }
}
