package io.spanflight.internal;

import io.opentelemetry.sdk.resources.Resource;
import io.spanflight.internal.bridge.ContextBridge;
import io.spanflight.internal.capture.SpanflightContextStorage;
import io.spanflight.internal.config.SpanflightConfig;
import io.spanflight.internal.control.ProfilerControl;
import io.spanflight.internal.control.SpanflightControl;
import io.spanflight.internal.correlate.Timelines;
import io.spanflight.internal.costs.SpanCostLink;
import io.spanflight.internal.costs.SpanCostTable;
import io.spanflight.internal.export.ProfileExporter;
import io.spanflight.internal.instrumentation.MethodHooks;
import io.spanflight.internal.instrumentation.VirtualThreadHooks;
import io.spanflight.internal.jfr.join.SampleJoiner;
import io.spanflight.internal.opamp.OpampClient;
import io.spanflight.internal.registry.ContextRegistry;
import io.spanflight.internal.registry.LocalRoots;
import io.opentelemetry.sdk.autoconfigure.spi.ConfigProperties;
import io.opentelemetry.sdk.autoconfigure.spi.internal.DefaultConfigProperties;
import io.spanflight.internal.config.OpampSettings;
import io.spanflight.internal.config.RemoteSettings;
import io.spanflight.internal.config.SettingsLayers;
import io.spanflight.internal.config.SourceSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The profiler's switch: starts Spanflight on the {@link DataPath} wired from the settings, and
 * turns profiling on and off at run time (the control MBean, a method-filter change on JDK 25, JVM
 * shutdown). While on, a {@link SpanflightRun} drains the rings into the timelines, runs our JFR
 * stream into the join and exports each interval.
 *
 * <p>Switching off ({@link #switchOff}) stops recording switches, ends the run (last interval
 * exported, our JFR stream closed, our threads ended), drains the rings once more so that the
 * native rings of exited threads are freed, and forgets the timelines (switches made while off are
 * not seen; until its next switch after switching on, a thread counts as having no span). While
 * off, a thread that ends frees its own ring as it ends ({@link ContextBridge#switchedOff}), so
 * memory stays flat with no thread of ours running. Switching on starts a new run. The data path
 * stays: the native state is per process.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class Spanflight implements ProfilerControl {
  private static final Logger logger = Logger.getLogger("io.spanflight");
  /** The local settings of a Spanflight started without them (a harness): nothing set. */
  private static final ConfigProperties NO_SETTINGS = DefaultConfigProperties.createFromMap(Map.of());

  private final DataPath path;
  /** Where each run-time setting comes from: local, remote (OpAMP), the MBean. */
  private final SettingsLayers layers;
  /** Null while off; written under this lock, read without it where waiting is not allowed. */
  private volatile SpanflightRun run;
  /** Null unless fleet control (OpAMP) is on. */
  private volatile OpampClient opamp;
  private boolean shutDown; // guarded by this
  private long starts; // guarded by this
  private long stops; // guarded by this

  private Spanflight(
      SpanflightConfig config, ConfigProperties local, Resource resource, LocalRoots localRoots, SpanCostLink costLink) {
    // not running(): the span exporter's thread asks often and must not wait for a switch-off
    this.path = DataPath.wire(config, resource, localRoots, costLink, () -> run != null, this::exporter);
    OpampSettings opamp = config.opamp();
    this.layers = new SettingsLayers(
        local == null ? NO_SETTINGS : local, opamp.active() && opamp.acceptRemoteConfig() ? opamp.limits() : null);
  }

  /**
   * Starts profiling. Cheap on the calling thread (the agent's startup): the exporter and the JFR
   * stream are created on a background thread.
   *
   * <p>Public as the in-process entry point for harnesses (the benchmarks' {@code
   * TimelineMemoryHarness}), which run Spanflight without the agent; with {@link #shutdown},
   * {@link #timelines} and {@link #joiner}. Still not API.
   */
  public static Spanflight start(SpanflightConfig config, Resource resource, LocalRoots localRoots) {
    return start(config, null, resource, localRoots, new SpanCostLink());
  }

  /**
   * As {@link #start(SpanflightConfig, Resource, LocalRoots)}, connecting span costs to {@code
   * costLink}; {@code local} are the settings {@code config} was read from, under the run-time
   * changes (null: none are set, as for a harness).
   */
  static Spanflight start(
      SpanflightConfig config, ConfigProperties local, Resource resource, LocalRoots localRoots, SpanCostLink costLink) {
    Spanflight spanflight = new Spanflight(config, local, resource, localRoots, costLink);
    spanflight.path.processContext().publish();
    SpanflightContextStorage.recordScopeEvents(config.scopeEventThreshold() != null);
    spanflight.switchOn();
    if (config.opamp().active()) {
      spanflight.opamp = OpampClient.start(
          config.opamp(), new FleetView(spanflight, spanflight.path, spanflight::exporter, resource));
    }
    Runtime.getRuntime().addShutdownHook(new Thread(spanflight::shutdown, "spanflight-shutdown"));
    if (config.jmxEnabled()) {
      // Not on the agent's startup thread: the platform MBean server is created on first use.
      Thread registration = new Thread(() -> SpanflightControl.register(spanflight), "spanflight-jmx");
      registration.setDaemon(true);
      registration.start();
    }
    return spanflight;
  }

  /**
   * Puts {@code proposal} in force, whole or not at all: its errors, when it has any (nothing
   * changes then); else an empty list, once its layers are the ones in force and profiling runs
   * (or not) as they say. A change of a run-time setting ends the current run (its last interval
   * exported: nothing recorded is lost) and starts a new one with the new settings.
   *
   * @param by who asks, for the log line: "remote configuration", "the control MBean"
   */
  public synchronized List<String> apply(SettingsLayers.Proposal proposal, String by) {
    if (!proposal.valid()) {
      return proposal.errors();
    }
    if (shutDown) {
      return List.of("the JVM is shutting down");
    }
    layers.commit(proposal);
    SpanflightConfig next = proposal.config();
    if (proposal.changes()) {
      boolean wasOn = switchOff();
      path.putInForce(next);
      logger.info("Spanflight settings changed by " + by + (wasOn ? " (a new run starts)" : "") + ": "
          + (layers.origins().isEmpty() ? "the local settings are in force" : String.join(", ", layers.origins())));
    }
    if (next.enabled()) {
      switchOn();
    } else {
      switchOff();
    }
    return List.of();
  }

  /** The run-time settings' layers (for the OpAMP client and the MBean). */
  public SettingsLayers layers() {
    return layers;
  }

  @Override
  public boolean changeEnabled(boolean on) {
    synchronized (this) {
      boolean wasOn = run != null;
      applyByHand(layers.proposeJmx(SpanflightConfig.ENABLED, String.valueOf(on)));
      return wasOn != (run != null);
    }
  }

  @Override
  public void applySettings(String lines) {
    List<String> errors = new ArrayList<>();
    RemoteSettings settings = RemoteSettings.parse(lines == null ? "" : lines, errors);
    SettingsLayers.Proposal proposal = layers.proposeJmx(settings);
    if (!errors.isEmpty()) { // the lines that parsed are checked too: every message at once
      errors.addAll(proposal.errors());
      throw new IllegalArgumentException(String.join("; ", errors));
    }
    applyByHand(proposal);
  }

  @Override
  public void clearSettings() {
    applyByHand(layers.proposeJmx(RemoteSettings.NONE));
  }

  @Override
  public List<String> settingsOrigins() {
    return layers.origins();
  }

  private void applyByHand(SettingsLayers.Proposal proposal) {
    List<String> errors = apply(proposal, "the control MBean");
    if (!errors.isEmpty()) {
      throw new IllegalArgumentException(String.join("; ", errors));
    }
  }

  @Override
  public synchronized boolean switchOn() {
    if (run != null || shutDown) {
      return false;
    }
    path.collector().takeInterval(); // the next interval starts now, not when profiling was last on
    path.bridge().switchedOff(false); // before the run's first drain
    run = new SpanflightRun(path);
    if (path.mode().capture) {
      SpanflightContextStorage.start(path.recorder());
      if (path.carrierRecords() != null) {
        path.carrierRecords().start();
      }
    }
    run.start();
    starts++;
    if (starts > 1) {
      logger.info("Spanflight switched on");
    }
    return true;
  }

  @Override
  public synchronized boolean switchOff() {
    SpanflightRun ending = run;
    if (ending == null) {
      return false;
    }
    run = null;
    stops++;
    try {
      SpanflightContextStorage.stop();
      if (path.carrierRecords() != null) {
        path.carrierRecords().stop();
      }
      ending.stop();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      logger.log(Level.WARNING, "Spanflight did not stop cleanly", e);
    }
    // Once more after the drainer ended: frees the native rings of threads that exited.
    path.timelines().drain();
    path.timelines().forgetAll(); // the registry is pruned against the empty timelines by the next run
    path.bridge().clearRecords(); // readers outside the JVM see no context while off
    path.bridge().switchedOff(true); // from now on, a thread that ends frees its ring itself
    // One line with the join's counters, at a switch-off and at JVM shutdown alike: what share of
    // the samples linked, and why the others did not.
    logger.info((shutDown ? "Spanflight stopped: " : "Spanflight switched off: ") + path.joiner().counts().summary());
    return true;
  }

  /**
   * At JVM shutdown (and for tests): switches off for good. Public for harnesses, as {@link
   * #start(SpanflightConfig, Resource, LocalRoots)}.
   */
  public void shutdown() {
    OpampClient client = opamp;
    if (client != null) {
      client.stop(); // before shutDown: a remote configuration being applied finishes first
    }
    synchronized (this) {
      shutDown = true;
    }
    VirtualThreadHooks.disconnect();
    switchOff();
    MethodHooks.disconnect();
  }

  /**
   * The running exporter, or the none exporter while off. Does not wait for the lock: metric
   * callbacks call it while a switch-off (at shutdown, several seconds) holds it.
   */
  private ProfileExporter exporter() {
    SpanflightRun current = run;
    return current == null ? ProfileExporter.NONE : current.exporter();
  }

  @Override
  public synchronized boolean running() {
    return run != null;
  }

  @Override
  public long counter(Counter counter) {
    if (counter == Counter.STARTS || counter == Counter.STOPS) {
      synchronized (this) {
        return counter == Counter.STARTS ? starts : stops;
      }
    }
    return path.count(counter);
  }

  @Override
  public List<String> settingsInForce() {
    SpanflightRun current;
    synchronized (this) {
      current = run;
    }
    return current == null ? List.of() : current.settingsInForce();
  }

  @Override
  public String methodFilter(String source) {
    return path.methodSources().filter(source);
  }

  /**
   * Sets a method filter at run time: before JDK 25 its methods are retransformed at once; on JDK
   * 25 a running profiler starts a new run (a new JFR stream) with it.
   */
  @Override
  public void changeMethodFilter(String source, String filter) {
    if (!source.equals(SourceSettings.METHOD_TIMING) && !source.equals(SourceSettings.METHOD_TRACE)) {
      throw new IllegalArgumentException("not a method source: " + source);
    }
    String value = filter == null ? "" : filter.trim();
    applyByHand(layers.proposeJmx("otel.spanflight." + source + ".filter", value));
  }

  @Override
  public String configuration() {
    return path.config().describe();
  }

  // For tests and benchmarks: the parts they watch.

  ContextBridge bridge() {
    return path.bridge();
  }

  /** The per-span cost table, or null when span costs are off. */
  SpanCostTable spanCosts() {
    return path.spanCosts();
  }

  /** The timelines the rings drain into; public for harnesses, as {@link #start(SpanflightConfig, Resource, LocalRoots)}. */
  public Timelines timelines() {
    return path.timelines();
  }

  ContextRegistry registry() {
    return path.registry();
  }

  /** The join of JFR samples with the timelines; public for harnesses, as {@link #start(SpanflightConfig, Resource, LocalRoots)}. */
  public SampleJoiner joiner() {
    return path.joiner();
  }
}
