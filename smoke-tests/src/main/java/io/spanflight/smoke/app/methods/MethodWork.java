package io.spanflight.smoke.app.methods;

import java.util.concurrent.locks.LockSupport;

/**
 * The methods {@link MethodApp} times, one per kind of method filter, each in its own class so
 * that a filter selects exactly one of them:
 *
 * <ul>
 *   <li>{@code io.spanflight.smoke.app.methods.MethodWork$ByClass} (a class: its one method);
 *   <li>{@code io.spanflight.smoke.app.methods.MethodWork$ByMethod::selected} (class::method:
 *       not {@code unselected} next to it);
 *   <li>{@code ::uniquelyNamedMethodWork} (a method name in any class);
 *   <li>{@code @io.spanflight.smoke.app.methods.Timed} (an annotation).
 * </ul>
 *
 * Each waits about the given time (parked, no CPU burnt) and returns.
 */
public final class MethodWork {
  private MethodWork() {}

  static void pause(long micros) {
    long deadline = System.nanoTime() + micros * 1000;
    long left;
    while ((left = deadline - System.nanoTime()) > 0) {
      LockSupport.parkNanos(left);
    }
  }

  /** Selected by its class name. */
  public static final class ByClass {
    private ByClass() {}

    public static void work(long micros) {
      pause(micros);
    }
  }

  /** {@code selected} is selected by class::method; {@code unselected} is not. */
  public static final class ByMethod {
    private ByMethod() {}

    public static void selected(long micros) {
      pause(micros);
    }

    public static void unselected(long micros) {
      pause(micros);
    }
  }

  /** Selected by the method name alone. */
  public static final class ByName {
    private ByName() {}

    public static void uniquelyNamedMethodWork(long micros) {
      pause(micros);
    }
  }

  /** Selected by its annotation. */
  public static final class ByAnnotation {
    private ByAnnotation() {}

    @Timed
    public static void work(long micros) {
      pause(micros);
    }

    public static void notAnnotated(long micros) {
      pause(micros);
    }
  }

  /** The probe the test calls until its trace arrives: then the filter is in force. */
  public static final class Probe {
    private Probe() {}

    public static void ping() {
      pause(100);
    }
  }
}
