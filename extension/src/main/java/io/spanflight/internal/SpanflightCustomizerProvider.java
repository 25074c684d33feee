package io.spanflight.internal;

import io.opentelemetry.sdk.autoconfigure.spi.AutoConfigurationCustomizer;
import io.opentelemetry.sdk.autoconfigure.spi.AutoConfigurationCustomizerProvider;
import io.opentelemetry.sdk.autoconfigure.spi.ConfigProperties;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.spanflight.internal.capture.ApiBootstrap;
import io.spanflight.internal.capture.SpanflightContextStorage;
import io.spanflight.internal.capture.WrapperSelfCheck;
import io.spanflight.internal.config.Redacted;
import io.spanflight.internal.config.SpanflightConfig;
import io.spanflight.internal.config.UnknownKeys;
import io.spanflight.internal.costs.SpanCostLink;
import io.spanflight.internal.costs.SpanCosts;
import io.spanflight.internal.registry.LocalRoots;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The entry point the OpenTelemetry javaagent finds through {@code META-INF/services}.
 *
 * <p>{@link #customize} first checks the agent's release ({@link SupportedAgents}): on one older
 * than the oldest supported it logs one line and registers nothing. Otherwise it registers the
 * context-storage wrapper (it must happen this early, before
 * the storage is first used) and a resource customizer; when the SDK is built, that customizer
 * receives the final configuration and resource, reads Spanflight's settings, checks that the
 * wrapper is live and starts profiling. It runs last among providers so that the resource it sees
 * is the one the SDK exports. The span exporter and tracer provider customizers, which the SDK
 * calls after it, use the settings it read ({@link SdkBuildSettings}): read once, logged once.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class SpanflightCustomizerProvider implements AutoConfigurationCustomizerProvider {
  private static final Logger logger = Logger.getLogger("io.spanflight");
  private static final AtomicBoolean started = new AtomicBoolean();
  /**
   * Tracks live spans: their local roots (context attributes, the Grafana mode) and the records the
   * registry interned them as, and tells the registry when they end.
   */
  private static final LocalRoots localRoots = new LocalRoots();
  /** Connects the cost-annotating span exporter to the profiler once it starts. */
  private static final SpanCostLink costLink = new SpanCostLink();
  /** Costs go on the spans of one exporter: taking a span's costs empties its entry. */
  private static final AtomicBoolean costsWrapped = new AtomicBoolean();

  @Override
  public void customize(AutoConfigurationCustomizer customizer) {
    // on an agent older than the oldest supported: one line, nothing installed, the app runs on
    String refusal = SupportedAgents.refusal(SpanflightCustomizerProvider.class.getClassLoader());
    if (refusal != null) {
      logger.warning(refusal);
      return;
    }
    SpanflightContextStorage.install();
    SdkBuildSettings settings = new SdkBuildSettings();
    customizer.addResourceCustomizer((resource, properties) -> startOnce(resource, settings, properties));
    customizer.addTracerProviderCustomizer(
        (builder, properties) -> {
          SpanflightConfig config = settings.of(properties);
          if (!config.active()) {
            return builder;
          }
          if (config.linkLocalRoot()) {
            localRoots.markProfileIds();
          }
          return builder.addSpanProcessor(localRoots);
        });
    customizer.addSpanExporterCustomizer((exporter, properties) -> withCosts(exporter, settings, properties));
  }

  /**
   * With {@code otel.spanflight.span.costs}, the first span exporter is wrapped so that spans leave
   * with their costs; with several exporters configured, the others send spans as they are.
   */
  private static SpanExporter withCosts(SpanExporter exporter, SdkBuildSettings settings, ConfigProperties properties) {
    try {
      SpanflightConfig config = settings.of(properties);
      if (!config.active() || !config.spanCosts()) {
        return exporter;
      }
      if (!costsWrapped.compareAndSet(false, true)) {
        logger.info("Spanflight puts span costs on the first traces exporter only; " + exporter + " sends spans without them");
        return exporter;
      }
      return SpanCosts.wrap(exporter, costLink, config);
    } catch (Throwable t) { // never break the application's startup
      logger.log(Level.SEVERE, "Spanflight could not add span costs; spans are exported without them", t);
      return exporter;
    }
  }

  @Override
  public int order() {
    return Integer.MAX_VALUE;
  }

  private static Resource startOnce(Resource resource, SdkBuildSettings settings, ConfigProperties properties) {
    if (!started.compareAndSet(false, true)) {
      return resource;
    }
    try {
      SpanflightConfig config = settings.of(properties);
      config.logErrors();
      UnknownKeys.warnAboutSystemPropertiesAndEnvironment();
      if (!config.active()) {
        if (config.errors().isEmpty()) {
          logger.info("Spanflight is disabled (" + SpanflightConfig.ENABLED + "=false)");
        }
        return resource;
      }
      if (!WrapperSelfCheck.wrapperActive()) {
        logger.severe(
            "Spanflight's context-storage wrapper is not active (the context storage was used before"
                + " the agent loaded Spanflight, or another library replaced it): profiles will carry"
                + " no span links");
      }
      String apiProblem = ApiBootstrap.install(config.nativeDirectory());
      if (apiProblem != null) {
        logger.warning("Spanflight's public API (io.spanflight.SpanflightContext) is not connected, its entries"
            + " will not be recorded: " + apiProblem);
      }
      // the agent's process detector may have copied -D secrets into the resource: ours masks them
      Spanflight spanflight =
          Spanflight.start(config, properties, Redacted.resource(resource, config.secrets()), localRoots, costLink);
      localRoots.connect(spanflight.registry());
    } catch (Throwable t) { // never break the application's startup
      logger.log(Level.SEVERE, "Spanflight could not start; the application continues without it", t);
    }
    return resource;
  }
}
