package io.spanflight.internal.jfr;

import java.time.Duration;
import java.util.logging.Level;
import java.util.logging.Logger;
import jdk.jfr.consumer.RecordingStream;

/**
 * Our JFR recording: a {@link RecordingStream} with {@code jdk.ExecutionSample} at the configured
 * period and the calibration event, consumed on the daemon thread {@value #THREAD_NAME}. Events
 * are kept in memory (reuse off) only as long as the join needs them.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class JfrSampleStream implements AutoCloseable {
  public static final String THREAD_NAME = "spanflight-jfr";
  private static final Logger logger = Logger.getLogger(JfrSampleStream.class.getName());

  private final Duration cpuPeriod;
  private final SampleJoiner joiner;
  private volatile RecordingStream stream;
  private volatile boolean closed;

  public JfrSampleStream(Duration cpuPeriod, SampleJoiner joiner) {
    this.cpuPeriod = cpuPeriod;
    this.joiner = joiner;
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
      rs.enable("jdk.ExecutionSample").withPeriod(cpuPeriod).withStackTrace();
      rs.enable(CalibrationEvent.class).withoutStackTrace();
      rs.onEvent("jdk.ExecutionSample", joiner::onCpuSample);
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
