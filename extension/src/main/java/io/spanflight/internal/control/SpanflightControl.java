package io.spanflight.internal.control;

import io.spanflight.internal.control.ProfilerControl.Counter;
import java.lang.management.ManagementFactory;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * The control MBean: a thin JMX face over a {@link ProfilerControl}. Operations run on the JMX
 * caller's thread; {@code stop} takes up to a few seconds (it lets JFR deliver what was sampled).
 *
 * <p>Not API: internal to Spanflight.
 */
public final class SpanflightControl implements SpanflightControlMBean {
  public static final String OBJECT_NAME = "io.spanflight:type=Spanflight";
  private static final Logger logger = Logger.getLogger("io.spanflight");

  private final ProfilerControl control;

  public SpanflightControl(ProfilerControl control) {
    this.control = control;
  }

  /**
   * Registers a control for {@code control} in the platform MBean server; returns false (with a
   * warning) when that is not possible, e.g. when another Spanflight already registered one.
   */
  public static boolean register(ProfilerControl control) {
    try {
      MBeanServer server = ManagementFactory.getPlatformMBeanServer();
      server.registerMBean(new SpanflightControl(control), new ObjectName(OBJECT_NAME));
      return true;
    } catch (JMException | RuntimeException e) {
      logger.log(Level.WARNING, "Spanflight could not register its control MBean " + OBJECT_NAME, e);
      return false;
    }
  }

  /** Removes the registered control, if any. */
  public static void unregister() {
    try {
      MBeanServer server = ManagementFactory.getPlatformMBeanServer();
      ObjectName name = new ObjectName(OBJECT_NAME);
      if (server.isRegistered(name)) {
        server.unregisterMBean(name);
      }
    } catch (JMException | RuntimeException e) {
      logger.log(Level.FINE, "Spanflight could not unregister " + OBJECT_NAME, e);
    }
  }

  @Override
  public boolean start() {
    return control.changeEnabled(true);
  }

  @Override
  public boolean stop() {
    return control.changeEnabled(false);
  }

  @Override
  public boolean isRunning() {
    return control.running();
  }

  @Override
  public long getSamples() {
    return control.counter(Counter.SAMPLES);
  }

  @Override
  public long getLinkedSamples() {
    return control.counter(Counter.LINKED_SAMPLES);
  }

  @Override
  public long getUnknownTimelineSamples() {
    return control.counter(Counter.UNKNOWN_TIMELINE_SAMPLES);
  }

  @Override
  public long getFilteredSamples() {
    return control.counter(Counter.FILTERED_SAMPLES);
  }

  @Override
  public long getDroppedSamples() {
    return control.counter(Counter.DROPPED_SAMPLES);
  }

  @Override
  public long getEventsBelowOurThreshold() {
    return control.counter(Counter.EVENTS_BELOW_OUR_THRESHOLD);
  }

  @Override
  public long getOwnThreadWaits() {
    return control.counter(Counter.OWN_THREAD_WAITS);
  }

  @Override
  public long getLostSwitches() {
    return control.counter(Counter.LOST_SWITCHES);
  }

  @Override
  public long getContexts() {
    return control.counter(Counter.CONTEXTS);
  }

  @Override
  public long getTimelineThreads() {
    return control.counter(Counter.TIMELINE_THREADS);
  }

  @Override
  public long getNativeRings() {
    return control.counter(Counter.NATIVE_RINGS);
  }

  @Override
  public long getBlindSources() {
    return control.counter(Counter.BLIND_SOURCES);
  }

  @Override
  public long getLostSamples() {
    return control.counter(Counter.LOST_SAMPLES);
  }

  @Override
  public long getReaderFallbacks() {
    return control.counter(Counter.READER_FALLBACKS);
  }

  @Override
  public long getStarts() {
    return control.counter(Counter.STARTS);
  }

  @Override
  public long getStops() {
    return control.counter(Counter.STOPS);
  }

  @Override
  public String[] getSettingsInForce() {
    return control.settingsInForce().toArray(new String[0]);
  }

  @Override
  public String getConfiguration() {
    return control.configuration();
  }

  @Override
  public String getMethodTimingFilter() {
    return control.methodFilter("methodtiming");
  }

  @Override
  public void setMethodTimingFilter(String filter) {
    control.changeMethodFilter("methodtiming", filter);
  }

  @Override
  public String getMethodTraceFilter() {
    return control.methodFilter("methodtrace");
  }

  @Override
  public void setMethodTraceFilter(String filter) {
    control.changeMethodFilter("methodtrace", filter);
  }

  @Override
  public void applySettings(String lines) {
    control.applySettings(lines);
  }

  @Override
  public void clearSettings() {
    control.clearSettings();
  }

  @Override
  public String[] getSettingsOrigins() {
    return control.settingsOrigins().toArray(new String[0]);
  }
}
