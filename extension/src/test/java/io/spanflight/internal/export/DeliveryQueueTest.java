package io.spanflight.internal.export;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.sdk.common.CompletableResultCode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The queue's own rules, against a transport the test answers by hand. */
class DeliveryQueueTest {

  /** Records each send; the test completes them. */
  private static final class ManualTransport implements ProfileTransport {
    final LinkedBlockingQueue<Consumer<SendOutcome>> sends = new LinkedBlockingQueue<>();
    final List<byte[]> bodies = new ArrayList<>();
    volatile boolean shutDown;

    @Override
    public String destination() {
      return "manual";
    }

    @Override
    public synchronized void send(byte[] request, Consumer<SendOutcome> done) {
      bodies.add(request);
      sends.add(done);
    }

    @Override
    public CompletableResultCode shutdown() {
      shutDown = true;
      return CompletableResultCode.ofSuccess();
    }

    Consumer<SendOutcome> nextSend() throws InterruptedException {
      Consumer<SendOutcome> next = sends.poll(10, TimeUnit.SECONDS);
      assertThat(next).as("a send within 10 s").isNotNull();
      return next;
    }
  }

  private static final SendOutcome OK = SendOutcome.delivered(PartialSuccess.NONE);

  private static DeliveryQueueBuilder builder(ProfileTransport transport) {
    return DeliveryQueue.builder(transport)
        .setInitialBackoff(Duration.ofMillis(10))
        .setMaxBackoff(Duration.ofMillis(20));
  }

  @Test
  void exportNeverBlocksEvenWhenTheCollectorNeverAnswers() throws Exception {
    ManualTransport transport = new ManualTransport();
    DeliveryQueue queue = builder(transport).setCapacity(3).setShutdownTimeout(Duration.ZERO).build();
    List<CompletableResultCode> results = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      results.add(queue.export(new byte[] {(byte) i}));
    }
    transport.nextSend(); // the first one is in flight and never answered
    DeliveryStats stats = queue.stats();
    assertThat(stats.produced()).isEqualTo(100);
    assertThat(stats.pending()).isEqualTo(3);
    assertThat(stats.droppedQueueFull()).isEqualTo(97);
    assertThat(stats.maxPending()).isEqualTo(3);
    assertThat(results.stream().filter(CompletableResultCode::isDone)).hasSize(97);

    assertThat(queue.shutdown().join(5, TimeUnit.SECONDS).isSuccess()).isTrue();
    stats = queue.stats();
    assertThat(stats.delivered() + stats.dropped()).isEqualTo(100);
    assertThat(stats.droppedAtShutdown()).isEqualTo(3);
    assertThat(results).allMatch(r -> r.isDone() && !r.isSuccess());
    assertThat(transport.shutDown).isTrue();
  }

  @Test
  void aRetryableFailureKeepsTheRequestAtTheHeadAndCountsTheRetry() throws Exception {
    ManualTransport transport = new ManualTransport();
    DeliveryQueue queue = builder(transport).build();
    CompletableResultCode first = queue.export(new byte[] {1});
    CompletableResultCode second = queue.export(new byte[] {2});

    transport.nextSend().accept(SendOutcome.retryable("HTTP 503"));
    transport.nextSend().accept(OK); // the retry of the first
    transport.nextSend().accept(OK);

    assertThat(first.join(5, TimeUnit.SECONDS).isSuccess()).isTrue();
    assertThat(second.join(5, TimeUnit.SECONDS).isSuccess()).isTrue();
    assertThat(transport.bodies).extracting(b -> b[0]).containsExactly((byte) 1, (byte) 1, (byte) 2);
    DeliveryStats stats = queue.stats();
    assertThat(stats.delivered()).isEqualTo(2);
    assertThat(stats.retries()).isEqualTo(1);
    queue.shutdown().join(5, TimeUnit.SECONDS);
  }

  @Test
  void anAttemptWithoutAnswerTimesOutAndALateAnswerIsIgnored() throws Exception {
    ManualTransport transport = new ManualTransport();
    DeliveryQueue queue = builder(transport).setAttemptTimeout(Duration.ofMillis(50)).build();
    CompletableResultCode result = queue.export(new byte[] {1});

    Consumer<SendOutcome> late = transport.nextSend(); // times out
    transport.nextSend().accept(OK); // the retry is answered
    late.accept(OK); // and the first answer arrives after all: not counted again

    assertThat(result.join(5, TimeUnit.SECONDS).isSuccess()).isTrue();
    DeliveryStats stats = queue.stats();
    assertThat(stats.delivered()).isEqualTo(1);
    assertThat(stats.retries()).isEqualTo(1);
    queue.shutdown().join(5, TimeUnit.SECONDS);
  }

  @Test
  void shutdownDeliversWhatIsQueuedThenRefusesNewRequests() throws Exception {
    ManualTransport transport = new ManualTransport();
    DeliveryQueue queue = builder(transport).setShutdownTimeout(Duration.ofSeconds(10)).build();
    queue.export(new byte[] {1});
    queue.export(new byte[] {2});
    CompletableResultCode terminated = queue.shutdown();
    transport.nextSend().accept(OK);
    transport.nextSend().accept(OK);

    assertThat(terminated.join(5, TimeUnit.SECONDS).isSuccess()).isTrue();
    assertThat(queue.export(new byte[] {3}).isSuccess()).isFalse();
    DeliveryStats stats = queue.stats();
    assertThat(stats.delivered()).isEqualTo(2);
    assertThat(stats.droppedAtShutdown()).isEqualTo(1);
    assertThat(stats.produced()).isEqualTo(3);
  }

  @Test
  void shutdownGivesUpAtItsTimeoutAndCountsWhatIsLeft() throws Exception {
    ManualTransport transport = new ManualTransport();
    DeliveryQueue queue = builder(transport).setShutdownTimeout(Duration.ofMillis(200)).build();
    queue.export(new byte[] {1});
    queue.export(new byte[] {2});
    transport.nextSend(); // never answered
    long start = System.nanoTime();

    assertThat(queue.shutdown().join(5, TimeUnit.SECONDS).isSuccess()).isTrue();
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
    DeliveryStats stats = queue.stats();
    assertThat(stats.droppedAtShutdown()).isEqualTo(2);
    assertThat(stats.delivered() + stats.dropped()).isEqualTo(2);
  }

  @Test
  void capacityOneDropsTheNewcomerWhileOneIsInFlight() throws Exception {
    ManualTransport transport = new ManualTransport();
    DeliveryQueue queue = builder(transport).setCapacity(1).build();
    CompletableResultCode first = queue.export(new byte[] {1});
    Consumer<SendOutcome> inFlight = transport.nextSend();
    CompletableResultCode second = queue.export(new byte[] {2});

    assertThat(second.isDone() && !second.isSuccess()).isTrue();
    inFlight.accept(OK);
    assertThat(first.join(5, TimeUnit.SECONDS).isSuccess()).isTrue();
    assertThat(queue.stats().droppedQueueFull()).isEqualTo(1);
    queue.shutdown().join(5, TimeUnit.SECONDS);
  }

  @Test
  void builderChecksArgumentsAndReconcilesBackoffs() {
    ManualTransport transport = new ManualTransport();
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> DeliveryQueue.builder(transport).setCapacity(0))
        .hasMessage("capacity must be at least 1, is 0");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> DeliveryQueue.builder(transport).setInitialBackoff(Duration.ZERO))
        .hasMessage("initialBackoff must be positive, is PT0S");
    DeliveryQueue queue =
        DeliveryQueue.builder(transport)
            .setInitialBackoff(2, TimeUnit.SECONDS)
            .setMaxBackoff(1, TimeUnit.SECONDS)
            .build(); // warns and uses 2 s for both
    queue.shutdown().join(5, TimeUnit.SECONDS);
  }

  @Test
  void aTransportThatThrowsFailsOneAttemptAndTheQueueDeliversOn() throws Exception {
    ManualTransport manual = new ManualTransport();
    int[] calls = {0};
    ProfileTransport throwsFirst = new ProfileTransport() {
      @Override
      public String destination() {
        return "throws once";
      }

      @Override
      public void send(byte[] request, Consumer<SendOutcome> done) {
        if (calls[0]++ == 0) {
          throw new IllegalStateException("secret-token-in-message");
        }
        manual.send(request, done);
      }

      @Override
      public CompletableResultCode shutdown() {
        return manual.shutdown();
      }
    };
    DeliveryQueue queue = builder(throwsFirst).build();
    CompletableResultCode result = queue.export(new byte[] {1});

    manual.nextSend().accept(OK); // the retry

    assertThat(result.join(5, TimeUnit.SECONDS).isSuccess()).isTrue();
    assertThat(queue.stats().retries()).isEqualTo(1);
    assertThat(queue.shutdown().join(5, TimeUnit.SECONDS).isSuccess()).isTrue();
  }
}
