package io.spanflight.internal.costs;

import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.metrics.DoubleCounter;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.metrics.Meter;
import io.spanflight.internal.format.CostKind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Request costs per route as counters of the agent's meter provider, so that "CPU per request per
 * route" is one division in any metrics backend. Each local-root span whose costs are known adds
 * its subtree: {@code spanflight.request.cpu.time} (s), {@code spanflight.request.allocated} (By),
 * {@code spanflight.request.wait.time} (s, by {@code spanflight.wait.kind}) and {@code
 * spanflight.request.count}, all with {@code http.route}, {@code http.request.method} and the
 * configured context attributes ({@code otel.spanflight.context.attributes}: string or long span
 * attributes, as strings) from the span. At most {@code maxRoutes} distinct combinations of these
 * values are kept; a request with a new one beyond it is reported with {@code http.route} and each
 * context attribute it has set to {@code other} (the method kept) and counted ({@code
 * spanflight.request.routes_folded}). Also {@code spanflight.span_costs.spans} by {@code
 * status}: every span the exporter sent.
 *
 * <p>Instruments are built once a meter is available (the global OpenTelemetry is set after the
 * SDK, and so after this exporter, is built). Used under the exporter's lock.
 *
 * <p>Not API: internal to Spanflight.
 */
final class RouteCostMetrics {
  static final AttributeKey<String> ROUTE = AttributeKey.stringKey("http.route");
  static final AttributeKey<String> METHOD = AttributeKey.stringKey("http.request.method");
  static final AttributeKey<String> WAIT_KIND = AttributeKey.stringKey("spanflight.wait.kind");
  static final AttributeKey<String> STATUS = AttributeKey.stringKey("status");
  static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("outcome");
  static final String OTHER = "other";
  private static final double NANOS_PER_SECOND = 1e9;

  private final Supplier<Meter> meterSource;
  private final int maxRoutes;
  private final int cpuKind;
  private final List<AttributeKey<String>> contextKeys = new ArrayList<>();
  private final List<AttributeKey<Long>> contextLongKeys = new ArrayList<>();
  private final String[] contextValues;
  private final Map<String, Attributes> routes = new HashMap<>();
  private final Map<String, Attributes> statuses = new HashMap<>();
  private DoubleCounter cpu;
  private LongCounter allocated;
  private DoubleCounter wait;
  private LongCounter requests;
  private LongCounter folded;
  private LongCounter spans;
  private LongCounter inferred;
  private Attributes inferredSent;
  private Attributes inferredDropped;

  /**
   * @param meterSource a meter, or null while there is none yet
   * @param contextAttributes the configured context attribute keys; {@code http.route} and {@code
   *     http.request.method} among them are dimensions anyway
   */
  RouteCostMetrics(Supplier<Meter> meterSource, int maxRoutes, int cpuKind, List<String> contextAttributes) {
    this.meterSource = meterSource;
    this.maxRoutes = maxRoutes;
    this.cpuKind = cpuKind;
    for (String key : new LinkedHashSet<>(contextAttributes)) {
      if (!key.equals(ROUTE.getKey()) && !key.equals(METHOD.getKey()) && !key.equals(WAIT_KIND.getKey())) {
        contextKeys.add(AttributeKey.stringKey(key));
        contextLongKeys.add(AttributeKey.longKey(key));
      }
    }
    this.contextValues = new String[contextKeys.size()];
  }

  /** Through the global OpenTelemetry, once the agent has set it. */
  static Supplier<Meter> globalMeter() {
    return () -> GlobalOpenTelemetry.isSet() ? GlobalOpenTelemetry.getMeter("io.spanflight") : null;
  }

  private boolean ready() {
    if (spans == null) {
      Meter meter = meterSource.get();
      if (meter == null) {
        return false;
      }
      cpu = meter.counterBuilder("spanflight.request.cpu.time").ofDoubles().setUnit("s")
          .setDescription("Estimated on-CPU time of sampled requests in this JVM (JFR samples)").build();
      allocated = meter.counterBuilder("spanflight.request.allocated").setUnit("By")
          .setDescription("Bytes allocated by sampled requests in this JVM (JFR allocation samples)").build();
      wait = meter.counterBuilder("spanflight.request.wait.time").ofDoubles().setUnit("s")
          .setDescription("Time sampled requests waited, by kind (JFR events above their threshold)").build();
      requests = meter.counterBuilder("spanflight.request.count").setUnit("{request}")
          .setDescription("Sampled requests whose costs are in the other spanflight.request.* counters").build();
      folded = meter.counterBuilder("spanflight.request.routes_folded").setUnit("{request}")
          .setDescription("Requests counted under http.route=other (the distinct route limit was reached)").build();
      spans = meter.counterBuilder("spanflight.span_costs.spans").setUnit("{span}")
          .setDescription("Spans sent by the cost-annotating exporter, by cost status").build();
      inferred = meter.counterBuilder("spanflight.inferred.spans").setUnit("{span}")
          .setDescription("Inferred wait and method spans, by outcome: sent, or dropped at a cap").build();
      inferredSent = Attributes.of(OUTCOME, "sent");
      inferredDropped = Attributes.of(OUTCOME, "dropped");
    }
    return true;
  }

  /** Counts one span sent with {@code status}. */
  void sent(String status) {
    if (ready()) {
      spans.add(1, statuses.computeIfAbsent(status, s -> Attributes.of(STATUS, s)));
    }
  }

  /** Counts a span's inferred children: {@code sent} went out with it, {@code dropped} hit a cap. */
  void inferred(long sent, long dropped) {
    if ((sent > 0 || dropped > 0) && ready()) {
      inferred.add(sent, inferredSent);
      inferred.add(dropped, inferredDropped);
    }
  }

  /** Adds one request (a local root with known subtree costs) of the route named by its attributes. */
  void request(Attributes spanAttributes, long[] subtree, boolean[] enabled) {
    if (!ready()) {
      return;
    }
    Attributes route = routeOf(spanAttributes);
    requests.add(1, route);
    if (cpuKind != CostKind.NONE) {
      cpu.add(CostAttributes.total(subtree, cpuKind) / NANOS_PER_SECOND, route);
    }
    if (enabled[CostKind.ALLOCATION]) {
      allocated.add(CostAttributes.total(subtree, CostKind.ALLOCATION), route);
    }
    for (int i = 0; i < CostKind.waitCount(); i++) {
      if (enabled[CostKind.waitKind(i)]) {
        Attributes kind = route.toBuilder().put(WAIT_KIND, CostKind.waitName(i)).build();
        wait.add(CostAttributes.total(subtree, CostKind.waitKind(i)) / NANOS_PER_SECOND, kind);
      }
    }
  }

  private Attributes routeOf(Attributes span) {
    String route = span.get(ROUTE);
    String method = span.get(METHOD);
    StringBuilder key = new StringBuilder().append(route).append('\u0000').append(method);
    for (int i = 0; i < contextKeys.size(); i++) {
      String value = span.get(contextKeys.get(i));
      if (value == null) {
        Long number = span.get(contextLongKeys.get(i));
        value = number == null ? null : number.toString();
      }
      contextValues[i] = value;
      key.append('\u0000').append(value);
    }
    Attributes known = routes.get(key.toString());
    if (known != null) {
      return known;
    }
    if (routes.size() >= maxRoutes) {
      folded.add(1);
      return attributes(OTHER, method, true);
    }
    Attributes made = attributes(route, method, false);
    routes.put(key.toString(), made);
    return made;
  }

  /** The dimensions, with the context values just read; {@code folded}: each present one as other. */
  private Attributes attributes(String route, String method, boolean folded) {
    AttributesBuilder b = Attributes.builder();
    if (route != null) {
      b.put(ROUTE, route);
    }
    if (method != null) {
      b.put(METHOD, method);
    }
    for (int i = 0; i < contextKeys.size(); i++) {
      if (contextValues[i] != null) {
        b.put(contextKeys.get(i), folded ? OTHER : contextValues[i]);
      }
    }
    return b.build();
  }

  /** Distinct combinations of route, method and context attributes seen (at most maxRoutes). */
  int routeCount() {
    return routes.size();
  }
}
