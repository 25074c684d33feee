package io.spanflight.smoke.app.propagation;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The request's chunks as one {@link CompletableFuture} async chain: {@code supplyAsync} on a
 * shared pool, {@code thenApplyAsync} on the default async executor, {@code thenComposeAsync}
 * into another {@code supplyAsync}, {@code thenCombineAsync} with a future of the default
 * executor.
 */
final class CompletableFutureScenario implements Scenario {
  private final ExecutorService pool = Executors.newFixedThreadPool(2, Daemons.named("cf-pool"));

  @Override
  public String name() {
    return "completable-future";
  }

  @Override
  public long handle(int id, long millis) {
    long chunk = Scenario.chunk(millis);
    return CompletableFuture.supplyAsync(() -> RequestTag.burn(id, Role.SERVER, chunk), pool)
        .thenApplyAsync(v -> v + RequestTag.burn(id, Role.SERVER, chunk))
        .thenComposeAsync(v -> CompletableFuture.supplyAsync(
            () -> v + RequestTag.burn(id, Role.SERVER, chunk), pool))
        .thenCombineAsync(
            CompletableFuture.supplyAsync(() -> RequestTag.burn(id, Role.SERVER, chunk)),
            Long::sum, pool)
        .join();
  }
}
