package io.spanflight.internal.capture;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.context.Context;
import org.junit.jupiter.api.Test;

/**
 * A wrapper registered after the context storage was first used is ignored by OpenTelemetry (as
 * when the agent loads Spanflight too late): the self-check must notice and count it. Runs in its
 * own JVM (surefire forks one per test class).
 */
class WrapperSelfCheckTest {

  @Test
  void aWrapperRegisteredTooLateIsReportedInactiveAndCounted() {
    Context.current(); // the storage is now in use
    SpanflightContextStorage.install();
    assertThat(WrapperSelfCheck.wrapperActive()).isFalse();
    assertThat(WrapperSelfCheck.failures()).isEqualTo(1);
  }
}
