package io.spanflight.internal;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.resources.Resource;
import io.spanflight.internal.config.SettingsLayers;
import io.spanflight.internal.control.ProfilerControl.Counter;
import io.spanflight.internal.export.DeliveryQueue;
import io.spanflight.internal.export.DeliveryStats;
import io.spanflight.internal.export.ProfileExporter;
import io.spanflight.internal.opamp.AgentDescription;
import io.spanflight.internal.opamp.ComponentHealth;
import io.spanflight.internal.opamp.KeyValue;
import io.spanflight.internal.opamp.OpampClient;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What the OpAMP client sees of the profiler: the agent's description (from the resource the SDK
 * exports), its health (profiling on or off, blind sources, the exporter's delivery counts) and
 * the settings in force with their origins; and the one way it changes anything, {@link
 * Spanflight#apply}, whole or not at all.
 *
 * <p>Not API: internal to Spanflight.
 */
final class FleetView implements OpampClient.Agent {
  /** Resource attributes that identify the instance (OpAMP's guidelines for SDKs); the rest describe it. */
  private static final List<String> IDENTIFYING = List.of("service.name", "service.namespace", "service.instance.id");
  private static final List<String> DESCRIBING = List.of("host.name", "deployment.environment.name", "os.type");

  private final Spanflight spanflight;
  private final DataPath path;
  private final Supplier<ProfileExporter> exporter;
  private final AgentDescription description;

  FleetView(Spanflight spanflight, DataPath path, Supplier<ProfileExporter> exporter, Resource resource) {
    this.spanflight = spanflight;
    this.path = path;
    this.exporter = exporter;
    this.description = describe(resource);
  }

  private static AgentDescription describe(Resource resource) {
    List<KeyValue> identifying = new ArrayList<>();
    for (String key : IDENTIFYING) {
      String value = resource.getAttribute(AttributeKey.stringKey(key));
      if (value != null) {
        identifying.add(new KeyValue(key, value));
      }
    }
    List<KeyValue> describing = new ArrayList<>();
    for (String key : DESCRIBING) {
      String value = resource.getAttribute(AttributeKey.stringKey(key));
      if (value != null) {
        describing.add(new KeyValue(key, value));
      }
    }
    describing.add(new KeyValue("process.runtime.version", String.valueOf(System.getProperty("java.runtime.version"))));
    describing.add(new KeyValue("spanflight.version", DataPath.VERSION));
    return new AgentDescription(List.copyOf(identifying), List.copyOf(describing));
  }

  @Override
  public SettingsLayers layers() {
    return spanflight.layers();
  }

  @Override
  public List<String> apply(SettingsLayers.Proposal proposal, String by) {
    return spanflight.apply(proposal, by);
  }

  @Override
  public AgentDescription description() {
    return description;
  }

  @Override
  public ComponentHealth health() {
    boolean running = spanflight.running();
    List<String> blind = running ? path.blindSources().blindNow() : List.of();
    String status = !running ? "off" : blind.isEmpty() ? "running" : "blind: " + String.join(",", blind);
    Map<String, ComponentHealth> parts = new LinkedHashMap<>();
    parts.put("profiling", part(running && blind.isEmpty(), status));
    ProfileExporter current = exporter.get();
    if (current instanceof DeliveryQueue) {
      DeliveryStats stats = ((DeliveryQueue) current).stats();
      // the counts of this run; they change with every export, so only their order of magnitude is sent
      parts.put("export", part(stats.dropped() == 0, "delivered " + magnitude(stats.delivered()) + ", dropped "
          + magnitude(stats.dropped()) + ", pending " + stats.pending() + " (this run)"));
    }
    parts.put("samples", part(true, "linked " + magnitude(spanflight.counter(Counter.LINKED_SAMPLES)) + " of "
        + magnitude(spanflight.counter(Counter.SAMPLES))));
    // off is a state someone chose, not a fault; a blind source is one
    return new ComponentHealth(blind.isEmpty(), 0, "", status, 0, parts);
  }

  private static ComponentHealth part(boolean healthy, String status) {
    return new ComponentHealth(healthy, 0, "", status, 0, Map.of());
  }

  /**
   * A count rounded down to its first digit ("0", "7", "30", "400", "5000"): health is reported
   * when it changes, and the exact counts would change it at every export.
   */
  static String magnitude(long count) {
    if (count < 10) {
      return Long.toString(count);
    }
    long scale = 1;
    while (count / scale >= 10) {
      scale *= 10;
    }
    return (count / scale) * scale + "+";
  }

  @Override
  public String effectiveConfig() {
    StringBuilder text = new StringBuilder("# Spanflight ").append(DataPath.VERSION)
        .append(spanflight.running() ? ", running" : ", off").append('\n')
        .append("# in force: ").append(path.config().describe()).append('\n');
    List<String> origins = spanflight.layers().origins();
    if (origins.isEmpty()) {
      text.append("# every run-time setting is local\n");
    }
    for (String line : origins) {
      int mark = line.lastIndexOf(" (");
      text.append(line, 0, mark).append("   # ").append(line, mark + 2, line.length() - 1).append('\n');
    }
    return text.toString();
  }
}
