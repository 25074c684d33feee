package io.spanflight.smoke.app.propagation;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.locks.LockSupport;

/**
 * The JDK 21 virtual-thread API, reached by method handles because this code is compiled for
 * Java 17; and the task both virtual-thread scenarios run: burn, park (the virtual thread
 * unmounts and later resumes, on whichever carrier is free), burn again.
 */
final class VirtualThreads {
  private static final long PARK_NANOS = 2_000_000L;

  private VirtualThreads() {}

  /** {@code Executors.newVirtualThreadPerTaskExecutor()}. */
  static ExecutorService newPerTaskExecutor() {
    try {
      MethodHandle factory = MethodHandles.publicLookup().findStatic(
          java.util.concurrent.Executors.class, "newVirtualThreadPerTaskExecutor",
          MethodType.methodType(ExecutorService.class));
      return (ExecutorService) factory.invoke();
    } catch (Throwable e) {
      throw new IllegalStateException("virtual threads need Java 21 or newer", e);
    }
  }

  /** {@code Thread.ofVirtual().start(task)}. */
  static Thread start(Runnable task) {
    try {
      Class<?> builder = Class.forName("java.lang.Thread$Builder");
      MethodHandles.Lookup lookup = MethodHandles.publicLookup();
      Object ofVirtual = lookup.findStatic(Thread.class, "ofVirtual",
          MethodType.methodType(Class.forName("java.lang.Thread$Builder$OfVirtual"))).invoke();
      return (Thread) lookup.findVirtual(builder, "start",
          MethodType.methodType(Thread.class, Runnable.class)).invoke(ofVirtual, task);
    } catch (Throwable e) {
      throw new IllegalStateException("virtual threads need Java 21 or newer", e);
    }
  }

  /** Two chunks of request {@code id}'s work with a park between them. */
  static long burnParkBurn(int id, long chunkMillis) {
    long acc = RequestTag.burn(id, Role.SERVER, chunkMillis);
    LockSupport.parkNanos(PARK_NANOS);
    return acc + RequestTag.burn(id, Role.SERVER, chunkMillis);
  }
}
