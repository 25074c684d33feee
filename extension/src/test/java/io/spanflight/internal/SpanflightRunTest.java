package io.spanflight.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.resources.Resource;
import io.spanflight.internal.costs.SpanCostLink;
import io.spanflight.internal.export.ProfileExporter;
import io.spanflight.internal.registry.LocalRoots;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A run stopped while its background start is still at work. */
class SpanflightRunTest {

  /**
   * The exporter is made slowly (TLS files on a busy host), beyond the 2 s stop() waits for the
   * start: stop() goes on without it, and the exporter the start makes afterwards must still be
   * shut down, or its threads and connections stay for the life of the JVM.
   */
  @Test
  @Timeout(60) // stop() must return while the start is stuck: a hang fails here instead of blocking the build
  void exporterMadeAfterStopGaveUpWaitingIsShutDown() throws Exception {
    CountDownLatch making = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    FakeExporter late = new FakeExporter();
    SpanflightRun run = new SpanflightRun(dataPath(), () -> {
      making.countDown();
      awaitIgnoringInterrupts(release); // stop()'s interrupt does not end a slow file read either
      return late;
    });

    run.start();
    making.await();
    run.stop(); // returns with the start still stuck in the exporter
    release.countDown();

    assertThat(late.shutDown.await(20, TimeUnit.SECONDS)).as("the late exporter was shut down").isTrue();
  }

  private static DataPath dataPath() {
    return DataPath.wire(
        QuietSettings.of(false), Resource.getDefault(), new LocalRoots(), new SpanCostLink(), () -> true, () -> ProfileExporter.NONE);
  }

  private static void awaitIgnoringInterrupts(CountDownLatch latch) {
    while (true) {
      try {
        latch.await();
        return;
      } catch (InterruptedException e) {
        // keep waiting, as a blocking read that ignores interrupts would
      }
    }
  }

  private static final class FakeExporter implements ProfileExporter {
    final CountDownLatch shutDown = new CountDownLatch(1);

    @Override
    public String destination() {
      return "fake";
    }

    @Override
    public CompletableResultCode export(byte[] request) {
      return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode shutdown() {
      shutDown.countDown();
      return CompletableResultCode.ofSuccess();
    }
  }
}
