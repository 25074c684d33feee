package io.spanflight.internal.costs;

import io.spanflight.internal.CollectingReader;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.spanflight.internal.format.CostKind;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Per-route cost metrics through the SDK's real counters: dimensions and their bound. */
class RouteCostMetricsTest {
  static final AttributeKey<String> TENANT = AttributeKey.stringKey("tenant");
  static final AttributeKey<String> SHARD = AttributeKey.stringKey("shard");
  static final long MS = 1_000_000L;

  final CollectingReader reader = new CollectingReader();
  final SdkMeterProvider meters = CollectingReader.provider(reader);
  final boolean[] enabled = new boolean[CostKind.COUNT];

  RouteCostMetricsTest() {
    Arrays.fill(enabled, true);
    enabled[CostKind.CPU_TIME] = false;
  }

  RouteCostMetrics metrics(int maxRoutes, List<String> contextAttributes) {
    return new RouteCostMetrics(() -> meters.get("test"), maxRoutes, CostKind.CPU, contextAttributes);
  }

  /** A local root's subtree costs: {@code cpuMs} of CPU and {@code lockMs} of lock wait. */
  static long[] subtree(long cpuMs, long lockMs) {
    long[] costs = new long[SubtreeTotals.UNKNOWN];
    costs[2 * CostKind.CPU] = cpuMs / 20;
    costs[2 * CostKind.CPU + 1] = cpuMs * MS;
    costs[2 * CostKind.LOCK + 1] = lockMs * MS;
    return costs;
  }

  static Attributes span(String route, String tenant, Long shard) {
    var b = Attributes.builder().put(RouteCostMetrics.ROUTE, route).put(RouteCostMetrics.METHOD, "GET")
        .put("http.response.status_code", 200L); // not configured: not a dimension
    if (tenant != null) {
      b.put(TENANT, tenant);
    }
    if (shard != null) {
      b.put(AttributeKey.longKey("shard"), shard);
    }
    return b.build();
  }

  static Attributes dims(String route, String tenant, String shard) {
    var b = Attributes.builder().put(RouteCostMetrics.ROUTE, route).put(RouteCostMetrics.METHOD, "GET");
    if (tenant != null) {
      b.put(TENANT, tenant);
    }
    if (shard != null) {
      b.put(SHARD, shard);
    }
    return b.build();
  }

  @Test
  void configuredContextAttributesAreDimensionsOfEveryRequestMetric() {
    RouteCostMetrics metrics = metrics(100, List.of("http.route", "http.request.method", "tenant", "shard"));
    metrics.request(span("/checkout", "acme", 7L), subtree(40, 30), enabled);
    metrics.request(span("/checkout", "acme", 7L), subtree(20, 0), enabled);
    metrics.request(span("/checkout", "globex", null), subtree(100, 0), enabled);

    Attributes acme = dims("/checkout", "acme", "7");
    assertThat(reader.value("spanflight.request.count", acme)).isEqualTo(2);
    assertThat(reader.value("spanflight.request.cpu.time", acme)).isEqualTo(0.060, within(1e-9));
    assertThat(reader.value("spanflight.request.wait.time",
        acme.toBuilder().put(RouteCostMetrics.WAIT_KIND, "lock").build())).isEqualTo(0.030, within(1e-9));
    Attributes globex = dims("/checkout", "globex", null); // no shard on the span: no shard dimension
    assertThat(reader.value("spanflight.request.count", globex)).isEqualTo(1);
    assertThat(reader.value("spanflight.request.cpu.time", globex)).isEqualTo(0.100, within(1e-9));
    assertThat(reader.value("spanflight.request.count", dims("/checkout", null, null))).as("route alone").isZero();
    assertThat(metrics.routeCount()).isEqualTo(2);
  }

  @Test
  void combinationsBeyondTheLimitFoldRouteAndContextValuesIntoOtherAndAreCounted() {
    RouteCostMetrics metrics = metrics(2, List.of("http.route", "tenant"));
    metrics.request(span("/a", "acme", null), subtree(20, 0), enabled);
    metrics.request(span("/a", "globex", null), subtree(20, 0), enabled);
    metrics.request(span("/a", "initech", null), subtree(40, 0), enabled); // a third combination
    metrics.request(span("/b", "umbrella", null), subtree(60, 0), enabled); // and a fourth
    metrics.request(span("/a", "acme", null), subtree(20, 0), enabled); // known: keeps its values

    assertThat(reader.value("spanflight.request.count", dims("/a", "acme", null))).isEqualTo(2);
    assertThat(reader.value("spanflight.request.count", dims("/a", "globex", null))).isEqualTo(1);
    Attributes other = dims("other", "other", null);
    assertThat(reader.value("spanflight.request.count", other)).isEqualTo(2);
    assertThat(reader.value("spanflight.request.cpu.time", other)).isEqualTo(0.100, within(1e-9));
    assertThat(reader.value("spanflight.request.routes_folded", Attributes.empty())).isEqualTo(2);
    assertThat(metrics.routeCount()).isEqualTo(2);
  }

  @Test
  void withoutContextAttributesTheDimensionsAreRouteAndMethod() {
    RouteCostMetrics metrics = metrics(100, List.of());
    metrics.request(span("/checkout", "acme", 7L), subtree(20, 0), enabled);
    assertThat(reader.value("spanflight.request.count", dims("/checkout", null, null))).isEqualTo(1);
  }
}
