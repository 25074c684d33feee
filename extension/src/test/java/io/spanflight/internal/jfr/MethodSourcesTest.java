package io.spanflight.internal.jfr;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.sdk.autoconfigure.spi.internal.DefaultConfigProperties;
import io.spanflight.internal.Interrupted;
import io.spanflight.internal.TestBridge;
import io.spanflight.internal.config.SpanflightConfig;
import io.spanflight.internal.correlate.Timelines;
import io.spanflight.internal.instrumentation.MethodHooks;
import io.spanflight.internal.instrumentation.bootstrap.MethodClock;
import io.spanflight.internal.profile.ProfileCollector;
import io.spanflight.internal.registry.ContextRegistry;
import java.nio.channels.ClosedByInterruptException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Before JDK 25 the method hooks are put in once per JVM, except where the first try was cut
 * short by a stop; the startup line says "on" only when they are.
 */
class MethodSourcesTest {
  private final TestBridge bridge = new TestBridge();
  private final SpanflightConfig config = SpanflightConfig.read(
      DefaultConfigProperties.createFromMap(Map.of("otel.spanflight.methodtiming.filter", "com.example.Shop::checkout")));
  /** Whether the starting thread was interrupted, per call to the starter. */
  private final List<Boolean> interrupted = new ArrayList<>();
  /** What each call to the starter does, in turn: throw the exception, or start when null. */
  private final List<Exception> failures = new ArrayList<>();

  private MethodSources sources() {
    return new MethodSources(config, new Timelines(bridge), new ContextRegistry(bridge), new ProfileCollector(), false,
        (timing, trace) -> {
          interrupted.add(Thread.currentThread().isInterrupted());
          assertThat(timing).isEqualTo("com.example.Shop::checkout");
          Exception failure = failures.remove(0);
          if (failure != null) {
            throw failure;
          }
          return MethodHooks.detached(8, 1024, null);
        });
  }

  @AfterEach
  void disconnect() {
    MethodClock.clear();
  }

  @Test
  void aFailureWhileInterruptedIsTriedAgainAtTheNextStart() {
    MethodSources sources = sources();
    failures.add(new ClosedByInterruptException());
    failures.add(null);

    String first = Interrupted.during(sources::startHooks); // stop() interrupts the start putting the hooks in
    String second = sources.startHooks();

    assertThat(first).isEqualTo(
        "method hooks off (java.nio.channels.ClosedByInterruptException; interrupted, tried again at the next start)");
    assertThat(second).startsWith("method hooks on (").endsWith(" ms, 0 methods so far)");
    assertThat(sources.startHooks()).startsWith("method hooks on ("); // not started again
    assertThat(interrupted).containsExactly(true, false);
  }

  @Test
  void aFailureWithoutInterruptIsKeptForTheJvmsLife() {
    MethodSources sources = sources();
    failures.add(new IllegalStateException("the javaagent's Instrumentation cannot retransform classes"));

    String first = sources.startHooks();

    assertThat(first).isEqualTo(
        "method hooks off (java.lang.IllegalStateException: the javaagent's Instrumentation cannot retransform classes)");
    assertThat(sources.startHooks()).isEqualTo(first);
    assertThat(interrupted).containsExactly(false);
  }
}
