package io.spanflight.internal.jfr;

import io.spanflight.internal.config.ConfigError;
import io.spanflight.internal.config.SourceSettings;
import io.spanflight.internal.config.SpanflightConfig;
import io.spanflight.internal.correlate.HookedMethodSamples;
import io.spanflight.internal.costs.InferredEvents;
import io.spanflight.internal.correlate.Timelines;
import io.spanflight.internal.instrumentation.MethodHooks;
import io.spanflight.internal.logging.ThrottledLogger;
import io.spanflight.internal.profile.ProfileCollector;
import io.spanflight.internal.registry.ContextRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The {@code methodtiming} and {@code methodtrace} sources, whichever JDK runs: on JDK 25 and
 * later JFR's {@code jdk.MethodTiming} and {@code jdk.MethodTrace} events (JEP 520) in our
 * recording; before, bytecode hooks ({@link MethodHooks}) whose calls {@link HookedMethodSamples}
 * turns into the same samples. Holds the filters in force, which the control MBean may change at
 * run time: the hooks then retransform; on JDK 25 the caller starts a new run with them.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class MethodSources {
  /** Traced calls that may wait for the once-a-second drain; beyond them calls are dropped. */
  static final int TRACE_CAPACITY = 32_768;
  /**
   * Per traced method, the most calls a second that carry their callers' stack (the others: the
   * method alone). A stack of 65 frames costs about 6 us and 7.6 KB on JDK 17 once the walker is
   * compiled, 20 us to 3 ms before (the first few hundred), and the application sees that time in
   * the traced call's caller: at 100 a second, the smoke test's 5 ms calls measured 3-6 % longer by
   * the application than by the hooks, at 0 within 2 %.
   */
  static final int STACKS_PER_SECOND = 10;
  /** The same over all traced methods: at most ~0.3 % of a core and 4 MB/s of garbage, compiled. */
  static final int ALL_STACKS_PER_SECOND = 500;
  private static final Logger logger = Logger.getLogger("io.spanflight");

  /** Puts the hooks in and instruments the filters' methods: {@link #prepareAndSelect}, or a test's stand-in. */
  interface HooksStarter {
    MethodHooks start(String timingFilter, String traceFilter) throws Exception;
  }

  private final SpanflightConfig config;
  private final Timelines timelines;
  private final ContextRegistry registry;
  private final ProfileCollector collector;
  private final boolean viaJfr;
  private final HooksStarter starter;
  private String timingFilter; // guarded by this
  private String traceFilter; // guarded by this
  private MethodHooks hooks; // guarded by this
  private HookedMethodSamples samples; // guarded by this
  private InferredEvents inferred; // guarded by this
  private String hooksFailure; // guarded by this
  private long installMillis; // guarded by this
  private long droppedTraces; // housekeeping thread
  private final ThrottledLogger dropLog = new ThrottledLogger(logger, 1, TimeUnit.MINUTES);

  public MethodSources(SpanflightConfig config, Timelines timelines, ContextRegistry registry, ProfileCollector collector) {
    this(config, timelines, registry, collector, Runtime.version().feature() >= 25, null);
  }

  /**
   * @param viaJfr whether JFR's events serve the method sources (JDK 25+), else the hooks
   * @param starter how the hooks are put in; null for {@link #prepareAndSelect}
   */
  MethodSources(SpanflightConfig config, Timelines timelines, ContextRegistry registry, ProfileCollector collector,
      boolean viaJfr, HooksStarter starter) {
    this.config = config;
    this.timelines = timelines;
    this.registry = registry;
    this.collector = collector;
    this.viaJfr = viaJfr;
    this.starter = starter != null ? starter : this::prepareAndSelect;
    for (SourceSettings source : config.sources()) {
      String filter = source.enabled() ? source.value() : "";
      if (source.name().equals(SourceSettings.METHOD_TIMING)) {
        timingFilter = filter;
      } else if (source.name().equals(SourceSettings.METHOD_TRACE)) {
        traceFilter = filter;
      }
    }
  }

  /** Whether JFR's events are the source (JDK 25+); else the hooks. */
  /**
   * From now on, traced calls of sampled spans also go to {@code events}, to become child spans (on
   * JDK 25 the JFR join feeds them; before, the hooks' drain does).
   */
  public synchronized void recordInferred(InferredEvents events) {
    inferred = events;
    if (samples != null) {
      samples.recordInferred(events);
    }
  }

  boolean viaJfr() {
    return viaJfr;
  }

  /** The sources for our JFR stream: method filters as in force now, none when the hooks serve them. */
  public synchronized List<SourceSettings> streamSources(List<SourceSettings> configured) {
    List<SourceSettings> sources = new ArrayList<>();
    for (SourceSettings source : configured) {
      String name = source.name();
      boolean method = name.equals(SourceSettings.METHOD_TIMING) || name.equals(SourceSettings.METHOD_TRACE);
      if (!method) {
        sources.add(source);
      } else if (viaJfr) {
        sources.add(SourceSettings.methodFilter(name, filterOf(name)));
      }
    }
    return sources;
  }

  private String filterOf(String source) {
    return source.equals(SourceSettings.METHOD_TIMING) ? timingFilter : traceFilter;
  }

  /**
   * Before JDK 25, instruments the methods of the filters (installing the hooks on first use);
   * returns a phrase for the startup line. Calls made while profiling was off are forgotten. A
   * failure is kept for the JVM's life, except one while the calling thread is interrupted
   * (profiling switched off during the first start: writing the hooks' jar then fails), which the
   * next start tries again.
   */
  public synchronized String startHooks() {
    if (viaJfr || timingFilter.isEmpty() && traceFilter.isEmpty() && hooks == null) {
      return viaJfr ? "method sources from JFR" : "method hooks off (no filter)";
    }
    if (hooks == null && hooksFailure == null) {
      long start = System.nanoTime();
      try {
        MethodHooks started = starter.start(timingFilter, traceFilter);
        samples = new HookedMethodSamples(started, timelines, registry, collector, config.filters());
        samples.recordInferred(inferred);
        hooks = started; // only once all of it worked: the startup line says "on" for nothing less
        installMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      } catch (Exception | LinkageError e) {
        if (Thread.currentThread().isInterrupted()) {
          return "method hooks off (" + e + "; interrupted, tried again at the next start)";
        }
        hooksFailure = e.toString();
        logger.warning("Spanflight cannot time or trace methods on this JDK: " + hooksFailure
            + "; methodtiming and methodtrace are off");
      }
    }
    if (samples != null) {
      samples.baseline();
    }
    return hooks != null
        ? "method hooks on (" + installMillis + " ms, " + hooks.ids().size() + " methods so far)"
        : "method hooks off (" + hooksFailure + ")";
  }

  /** The hooks on the boot class path, instrumenting the filters' methods. */
  private MethodHooks prepareAndSelect(String timing, String trace) throws Exception {
    MethodHooks prepared = MethodHooks.prepare(
        config.nativeDirectory(), config.methodHooksMax(), TRACE_CAPACITY, STACKS_PER_SECOND, ALL_STACKS_PER_SECOND);
    prepared.select(timing, trace);
    return prepared;
  }

  /**
   * Up to when (nanoTime clock) the hooks' traced calls have been handed on, so a span that ended
   * before it has all its traced calls; Long.MAX_VALUE where no hook traces (JDK 25's calls come
   * with JFR's stream, whose own watermark holds).
   */
  public synchronized long tracedUpTo() {
    return samples == null || traceFilter == null || traceFilter.isEmpty() ? Long.MAX_VALUE : samples.drainedUpTo();
  }

  /** Housekeeping, once a second: the hooks' calls into the current interval. */
  public void drain() {
    HookedMethodSamples s;
    MethodHooks h;
    synchronized (this) {
      s = samples;
      h = hooks;
    }
    if (s != null) {
      s.drain();
      long dropped = h.droppedTraces();
      if (dropped > droppedTraces) {
        dropLog.log(Level.WARNING, "Spanflight dropped " + (dropped - droppedTraces) + " traced calls (" + dropped
            + " since start): more than " + TRACE_CAPACITY + " per second; trace coarser methods", null);
        droppedTraces = dropped;
      }
      String refused = h.takeRefused();
      if (refused != null) {
        logger.warning("Spanflight instruments at most " + h.ids().max() + " methods ("
            + SpanflightConfig.METHOD_HOOKS_MAX + "); not timed or traced: " + refused);
      }
    }
  }

  /**
   * Sets the filter of {@code source} ({@code methodtiming} or {@code methodtrace}); before JDK 25
   * the methods are retransformed at once. Returns true when our JFR stream must be opened again
   * for it (JDK 25).
   *
   * @throws IllegalArgumentException for a filter not in the JDK's syntax, naming the key, the value
   *     and the expected form
   */
  public synchronized boolean change(String source, String filter) {
    String value = filter == null ? "" : filter.trim();
    try {
      SourceSettings.methodFilter(source, value);
    } catch (ConfigError e) {
      throw new IllegalArgumentException(e.getMessage());
    }
    if (source.equals(SourceSettings.METHOD_TIMING)) {
      timingFilter = value;
    } else if (source.equals(SourceSettings.METHOD_TRACE)) {
      traceFilter = value;
    } else {
      throw new IllegalArgumentException("not a method source: " + source);
    }
    logger.info("Spanflight: " + source + " filter set to '" + value + "'");
    if (viaJfr) {
      return true;
    }
    if (hooks != null) {
      hooks.select(timingFilter, traceFilter);
    } else {
      logger.info("Spanflight: " + startHooks());
    }
    return false;
  }

  public synchronized String filter(String source) {
    return filterOf(source);
  }
}
