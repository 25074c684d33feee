package io.spanflight.internal.registry;

import io.spanflight.internal.bridge.ContextBridge;
import java.util.function.UnaryOperator;

/** For tests in other packages: a registry with only a few slots, so that it runs out soon. */
public final class SmallRegistries {
  private SmallRegistries() {}

  public static ContextRegistry withSlots(ContextBridge bridge, int slots) {
    return new ContextRegistry(bridge, UnaryOperator.identity(), ContextAttributes.NONE, slots);
  }
}
