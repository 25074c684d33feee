package io.spanflight.smoke.app;

import io.spanflight.ContextScope;
import io.spanflight.SpanflightContext;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.LongSupplier;

/**
 * Requests that install a user-defined context ({@code tenant}) with Spanflight's public API and
 * hand all their work to a thread pool: the entries must reach the pool's samples through the
 * agent's context propagation.
 */
final class UserContextWork {
  private static final ExecutorService pool = Executors.newFixedThreadPool(2);

  private UserContextWork() {}

  /** {@code /tenant-a}: CPU in {@link BurnWork#burnCpuInsideRequest} as tenant a. */
  static long tenantA(long millis) {
    return asTenant("a", () -> BurnWork.burnCpuInsideRequest(millis));
  }

  /** {@code /tenant-b}: CPU in {@link BurnWork#digestInsideRequest} as tenant b. */
  static long tenantB(long millis) {
    return asTenant("b", () -> BurnWork.digestInsideRequest(millis));
  }

  private static long asTenant(String tenant, LongSupplier work) {
    try (ContextScope scope = SpanflightContext.current().with("tenant", tenant).makeCurrent()) {
      return pool.submit(work::getAsLong).get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    } catch (ExecutionException e) {
      throw new IllegalStateException(e.getCause());
    }
  }
}
