package io.spanflight.internal.registry;

import io.opentelemetry.api.trace.SpanContext;
import io.spanflight.internal.bridge.ContextBridge;
import io.spanflight.internal.bridge.ContextIds;
import java.util.Objects;
import java.util.function.UnaryOperator;
import java.util.logging.Logger;

/**
 * Builds a {@link ContextRegistry} ({@link ContextRegistry#builder}); every setting left alone
 * keeps its {@code DEFAULT_*}.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class ContextRegistryBuilder {
  /** Samples taken in a span link to the span itself. */
  static final UnaryOperator<SpanContext> DEFAULT_LINK_TARGET = UnaryOperator.identity();
  /** No span attributes on the contexts. */
  static final ContextAttributes DEFAULT_ATTRIBUTES = ContextAttributes.NONE;
  /** Every slot the context ids can address. */
  static final int DEFAULT_MAX_INDEX = ContextIds.MAX_INDEX;

  private static final Logger logger = Logger.getLogger(ContextRegistryBuilder.class.getName());

  final ContextBridge bridge;
  /** Null: not set, so the default, or the local root when {@link #linkLocalRoot}. */
  private UnaryOperator<SpanContext> linkTarget;
  ContextAttributes attributes = DEFAULT_ATTRIBUTES;
  int maxIndex = DEFAULT_MAX_INDEX;
  /** Null: no live spans, every context goes through the registry's key map. */
  LocalRoots liveSpans;
  boolean linkLocalRoot;

  /** @param bridge told what each id stands for before the id is handed out */
  ContextRegistryBuilder(ContextBridge bridge) {
    this.bridge = Objects.requireNonNull(bridge, "bridge");
  }

  /**
   * The span that samples taken in a span link to (default: the span itself; {@link
   * LocalRoots#localRootOf} in the Grafana mode, which {@link #liveSpans} sets).
   */
  public ContextRegistryBuilder linkTarget(UnaryOperator<SpanContext> linkTarget) {
    this.linkTarget = Objects.requireNonNull(linkTarget, "linkTarget");
    return this;
  }

  /** Which span attributes each context carries, and from where (default: none). */
  public ContextRegistryBuilder attributes(ContextAttributes attributes) {
    this.attributes = Objects.requireNonNull(attributes, "attributes");
    return this;
  }

  /**
   * The registry of a run: live spans are interned through {@code liveSpans} (see {@link
   * LiveSpan}); default: none, every context goes through the key map.
   *
   * @param linkLocalRoot samples link to the local root of their span (the Grafana mode): the
   *     link target becomes {@link LocalRoots#localRootOf}
   */
  public ContextRegistryBuilder liveSpans(LocalRoots liveSpans, boolean linkLocalRoot) {
    if (liveSpans == null && linkLocalRoot) {
      throw new NullPointerException("liveSpans: linking to the local root needs the live spans");
    }
    this.liveSpans = liveSpans;
    this.linkLocalRoot = linkLocalRoot;
    return this;
  }

  /** The highest slot index handed out (tests: a registry that fills up soon); at most the default. */
  ContextRegistryBuilder maxIndex(int maxIndex) {
    this.maxIndex = maxIndex;
    return this;
  }

  /** The link target in force: the local root's when {@link #linkLocalRoot}, which wins over {@link #linkTarget}. */
  UnaryOperator<SpanContext> linkTarget() {
    if (linkLocalRoot) {
      return liveSpans::localRootOf;
    }
    return linkTarget != null ? linkTarget : DEFAULT_LINK_TARGET;
  }

  public ContextRegistry build() {
    if (linkLocalRoot && linkTarget != null) {
      logger.warning("Spanflight registry: a link target was set along with linkLocalRoot; "
          + "samples link to the local root of their span");
    }
    return new ContextRegistry(this);
  }
}
