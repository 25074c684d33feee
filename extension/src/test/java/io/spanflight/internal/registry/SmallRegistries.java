package io.spanflight.internal.registry;

import io.spanflight.internal.bridge.ContextBridge;

/** For tests in other packages: a registry with only a few slots, so that it runs out soon. */
public final class SmallRegistries {
  private SmallRegistries() {}

  public static ContextRegistry withSlots(ContextBridge bridge, int slots) {
    return ContextRegistry.builder(bridge).maxIndex(slots).build();
  }
}
