package io.spanflight.internal.jfr;

import io.spanflight.internal.config.SourceSettings;
import io.spanflight.internal.profile.ProfileCollector;
import io.spanflight.internal.export.ThrottledLogger;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
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
  private final Duration maxAge;
  private final ThrottledLogger dumpFailures = new ThrottledLogger(logger, 1, TimeUnit.MINUTES);

  private Duration scopeEventThreshold;

  /** @param maxAge how much JFR data the stream keeps (and {@link #dumpRecent} returns) */
  public JfrSampleStream(
      List<SourceSettings> settings, SampleJoiner joiner, ProfileCollector collector, Duration maxAge) {
    this.maxAge = maxAge;
    this.settings = settings;
    this.joiner = joiner;
    this.methodTiming = new MethodTimingDeltas(collector);
  }

  /** Also records {@link SpanScopeEvent}s of scopes longer than {@code threshold}; call before start. */
  public void recordScopeEvents(Duration threshold) {
    this.scopeEventThreshold = threshold;
  }

  public void start() {
    Thread thread = new Thread(this::run, THREAD_NAME);
    thread.setDaemon(true);
    thread.start();
  }

  private void run() {
    try (RecordingStream rs = new RecordingStream()) {
      rs.setReuse(false);
      rs.setMaxAge(maxAge);
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
      if (scopeEventThreshold != null) {
        rs.enable(SpanScopeEvent.class).withThreshold(scopeEventThreshold);
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

  /**
   * The stream's recent JFR data as a recording file's bytes (what it keeps: about the last
   * {@code maxAge}), or null when there is no stream yet or the dump fails.
   */
  public byte[] dumpRecent() {
    RecordingStream rs = stream;
    if (rs == null) {
      return null;
    }
    Path file = null;
    try {
      file = Files.createTempFile("spanflight-", ".jfr");
      rs.dump(file);
      return Files.readAllBytes(file);
    } catch (IOException | RuntimeException e) {
      dumpFailures.log(Level.WARNING, "Spanflight could not dump the JFR data for original_payload", e);
      return null;
    } finally {
      deleteQuietly(file);
    }
  }

  private static void deleteQuietly(Path file) {
    if (file != null) {
      try {
        Files.deleteIfExists(file);
      } catch (IOException e) {
        logger.log(Level.FINE, "Spanflight could not delete " + file, e);
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
