package io.spanflight.internal;

import java.util.function.Supplier;

/** Runs a call with the calling thread interrupted, as {@code stop()} leaves a start it cuts short. */
public final class Interrupted {
  private Interrupted() {}

  /** The call's result; the thread's interrupt is cleared afterwards, whatever the call did. */
  public static <T> T during(Supplier<T> call) {
    Thread.currentThread().interrupt();
    try {
      return call.get();
    } finally {
      Thread.interrupted();
    }
  }
}
