package io.spanflight.smoke;

import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.spanflight.smoke.collector.OtlpCollector;
import io.spanflight.smoke.harness.TracedLoad;
import io.spanflight.smoke.profiles.CpuSamples;
import io.spanflight.smoke.profiles.StackSample;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Counts, while the load runs, the burn samples that have arrived per request path (each
 * profiles request decoded once, on one background thread every 250 ms), so that the load on a
 * path can stop once it has enough.
 */
final class ArrivedBurnSamples implements AutoCloseable {
  private final OtlpCollector collector;
  private final TracedLoad load;
  private final Map<String, Long> byPath = new ConcurrentHashMap<>();
  private final ScheduledExecutorService refresher = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread thread = new Thread(r, "arrived-burn-samples");
    thread.setDaemon(true);
    return thread;
  });
  private int decodedRequests;

  ArrivedBurnSamples(OtlpCollector collector, TracedLoad load) {
    this.collector = collector;
    this.load = load;
    refresher.scheduleWithFixedDelay(this::refresh, 250, 250, TimeUnit.MILLISECONDS);
  }

  /** Burn samples of requests sent to {@code path} (such as {@code /nested}) arrived so far. */
  long of(String path) {
    return byPath.getOrDefault(path, 0L);
  }

  /**
   * Returns once no profiles request has arrived for 1 s (the app exports every second while it
   * has samples), at the latest after {@code atMost}: what was sampled before the call has then
   * arrived (JFR delivers within 1 s, the next export follows within 1 s).
   */
  void awaitQuiet(Duration atMost) {
    long deadline = System.nanoTime() + atMost.toNanos();
    try {
      while (System.nanoTime() - deadline < 0) {
        int seen = collector.profileRequests().size();
        boolean more = collector.await(c -> c.profileRequests().size() > seen, Duration.ofSeconds(1));
        if (!more) {
          return;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      refresh();
    }
  }

  private synchronized void refresh() {
    List<ExportProfilesServiceRequest> requests = collector.profileRequests();
    for (int i = decodedRequests; i < requests.size(); i++) {
      for (StackSample sample : CpuSamples.decode(requests.get(i))) {
        BurnTag.of(sample.frames())
            .filter(BurnTag::decoded)
            .flatMap(tag -> load.sent(tag.id()))
            .ifPresent(sent -> byPath.merge(sent.path(), sample.count(), Long::sum));
      }
    }
    decodedRequests = requests.size();
  }

  @Override
  public void close() {
    refresher.shutdownNow();
  }
}
