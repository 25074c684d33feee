package io.spanflight.internal.jfr;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import jdk.jfr.Recording;

/**
 * Starts our plain recording on disk: the one {@link JfrSampleStream} reads, and the one the
 * diagnostic modes {@code jfr-only} and {@code reader-only} record ({@link RecordOnlyMode}, {@link
 * OwnReaderMode}), with exactly the same events and settings.
 *
 * <p>Not API: internal to Spanflight.
 */
final class PlainRecording {
  /** Our recording's name, as {@code jcmd JFR.check} and JMC list it. */
  static final String RECORDING_NAME = "Spanflight";

  private PlainRecording() {}

  /**
   * Starts our plain recording on disk of the events {@link OurEvents} enables for {@code
   * sourceList}, kept for {@code maxAge}; tells {@code enabled} the sources once they are enabled.
   */
  static Recording start(List<JfrSource> sourceList, Duration maxAge, Duration scopeEventThreshold,
      Consumer<List<JfrSource>> enabled) {
    Recording recording = new Recording();
    try {
      recording.setName(RECORDING_NAME);
      recording.setToDisk(true);
      recording.setMaxAge(maxAge);
      OurEvents.enable(recording::enable, recording::enable, sourceList, scopeEventThreshold);
      enabled.accept(sourceList);
      recording.start();
      return recording;
    } catch (RuntimeException | Error e) {
      recording.close();
      throw e;
    }
  }
}
