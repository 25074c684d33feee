package io.spanflight.internal.jfr;

import io.spanflight.internal.config.SourceSettings;
import io.spanflight.internal.profile.ProfileCollector;
import java.time.Duration;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import jdk.jfr.consumer.RecordingStream;

/**
 * Our JFR recording: a {@link RecordingStream} with the event types of the enabled sources at their
 * configured period, threshold, throttle or filter, and the calibration event, consumed on the
 * daemon thread {@value #THREAD_NAME}. Events are kept in memory (reuse off) only as long as the
 * join needs them.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class JfrSampleStream implements AutoCloseable {
  public static final String THREAD_NAME = "spanflight-jfr";
  private static final Logger logger = Logger.getLogger(JfrSampleStream.class.getName());

  private final List<SourceSettings> settings;
  private final SampleJoiner joiner;
  private final MethodTimingDeltas methodTiming;
  private volatile RecordingStream stream;
  private volatile boolean closed;

  public JfrSampleStream(List<SourceSettings> settings, SampleJoiner joiner, ProfileCollector collector) {
    this.settings = settings;
    this.joiner = joiner;
    this.methodTiming = new MethodTimingDeltas(collector);
  }

  public void start() {
    Thread thread = new Thread(this::run, THREAD_NAME);
    thread.setDaemon(true);
    thread.start();
  }

  private void run() {
    try (RecordingStream rs = new RecordingStream()) {
      rs.setReuse(false);
      rs.setMaxAge(Duration.ofSeconds(30));
      for (JfrSource source : JfrSources.of(settings, JfrSources.availableEventTypes())) {
        rs.enable(source.eventName).with(source.setting, source.settingValue).withStackTrace();
        if (source.eventName.equals(JfrSources.METHOD_TIMING)) {
          // cumulative figures, turned into per-interval deltas; once a second keeps them fresh
          rs.enable(source.eventName).withPeriod(Duration.ofSeconds(1));
          rs.onEvent(source.eventName, methodTiming::onEvent);
        } else {
          rs.onEvent(source.eventName, event -> joiner.onEvent(source, event));
        }
      }
      rs.enable(CalibrationEvent.class).withoutStackTrace();
      rs.onEvent(CalibrationEvent.NAME, joiner::onCalibration);
      stream = rs;
      if (!closed) {
        rs.start();
      }
    } catch (Throwable t) { // JFR missing or refused: profiling off, application unaffected
      if (!closed) {
        logger.log(Level.SEVERE, "Spanflight: the JFR stream stopped; no more profiles", t);
      }
    }
  }

  @Override
  public void close() {
    closed = true;
    RecordingStream rs = stream;
    if (rs != null) {
      rs.close();
    }
  }
}
