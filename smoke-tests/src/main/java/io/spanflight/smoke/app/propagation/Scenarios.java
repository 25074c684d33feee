package io.spanflight.smoke.app.propagation;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The scenarios the JDK HTTP server of {@code PropagationApp} serves, by URL path segment. */
public final class Scenarios {
  private final Map<String, Scenario> byName = new LinkedHashMap<>();

  private Scenarios(List<Scenario> all, int feature) {
    for (Scenario scenario : all) {
      if (feature >= scenario.minFeature()) {
        byName.put(scenario.name(), scenario);
      }
    }
  }

  /** Every scenario this JVM can run (the virtual-thread ones need Java 21). */
  public static Scenarios forThisJvm() {
    return new Scenarios(List.of(
        new PlatformThreadScenario(),
        ExecutorServiceScenario.fixed(),
        ExecutorServiceScenario.cached(),
        ExecutorServiceScenario.scheduled(),
        new ForkJoinScenario(),
        new ParallelStreamScenario(),
        new CompletableFutureScenario(),
        new VirtualExecutorScenario(),
        new VirtualThreadScenario(),
        new NestedScenario()),
        Runtime.version().feature());
  }

  public Optional<Scenario> byName(String name) {
    return Optional.ofNullable(byName.get(name));
  }

  /** The names, in a stable order. */
  public List<String> names() {
    return List.copyOf(byName.keySet());
  }
}
