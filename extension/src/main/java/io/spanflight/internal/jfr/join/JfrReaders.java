package io.spanflight.internal.jfr.join;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;

/**
 * Which reader reads our JFR recording, for the life of the JVM: Spanflight's own chunk reader
 * ({@link io.spanflight.internal.jfr.chunk.ChunkReader}) or the JDK's event stream ({@code
 * jdk.jfr.consumer.EventStream}, see {@code jfr.JdkStreamEvents}). {@code otel.spanflight.jfr.reader}
 * chooses: {@link Choice#AUTO} (the default) reads with ours until it meets a chunk it cannot read
 * (a format version it does not know, metadata it cannot parse, a truncated chunk, an event whose
 * fields are not laid out as its plan expects), then with the JDK's from then on, saying so in one
 * line and counting it; {@link Choice#SPANFLIGHT} keeps ours (a failed read starts a new recording,
 * as before); {@link Choice#JDK} reads with the JDK's from the start. Streams started after a
 * fallback (profiling switched off and on) read with the JDK's too.
 *
 * <p>Thread-safe: the JFR consumer thread switches it, the self-metrics and the control view read it.
 * Not API: internal to Spanflight.
 */
public final class JfrReaders {
  /** What {@code otel.spanflight.jfr.reader} asks for. */
  public enum Choice {
    /** Ours, and the JDK's once ours cannot read a chunk. */
    AUTO,
    /** Ours only. */
    SPANFLIGHT,
    /** The JDK's only. */
    JDK;

    /** The choice a setting value names ({@code auto}, {@code spanflight}, {@code jdk}). */
    public static Choice of(String value) {
      return valueOf(value.toUpperCase(Locale.ROOT));
    }
  }

  private static final Logger logger = Logger.getLogger(JfrReaders.class.getName());

  private final Choice choice;
  private volatile boolean jdk;
  private final AtomicLong fallbacks = new AtomicLong();

  public JfrReaders(Choice choice) {
    this.choice = choice;
    this.jdk = choice == Choice.JDK;
  }

  /** The default: {@link Choice#AUTO}. */
  static JfrReaders auto() {
    return new JfrReaders(Choice.AUTO);
  }

  /** Whether the JDK's event stream reads (from the start, or since a fallback). */
  public boolean jdk() {
    return jdk;
  }

  /**
   * Our reader could not read a chunk ({@code failure}): with {@link Choice#AUTO}, switches to the
   * JDK's stream for good, says so in one warning and counts it, and returns true; otherwise false
   * (the caller handles the failure as before).
   */
  public boolean fallBack(Exception failure) {
    if (choice != Choice.AUTO || jdk) {
      return false;
    }
    jdk = true;
    fallbacks.incrementAndGet();
    logger.warning(fallbackLine(failure));
    return true;
  }

  /** The one line a fallback logs. */
  static String fallbackLine(Exception failure) {
    return "Spanflight's own JFR chunk reader cannot read what this JDK (" + System.getProperty("java.vm.vendor")
        + " " + System.getProperty("java.runtime.version") + ") wrote: " + oneLine(failure.getMessage())
        + "; from now on, for the life of this JVM, Spanflight reads its recording with the JDK's event stream"
        + " (jdk.jfr.consumer.EventStream), which allocates more and costs more CPU in Spanflight's own threads;"
        + " events of the flush that failed may be missing (otel.spanflight.jfr.reader=jdk reads with the JDK's"
        + " stream from the start, =spanflight keeps Spanflight's reader)";
  }

  private static String oneLine(String message) {
    return message == null ? "(no message)" : message.replaceAll("[\\r\\n]+", " ");
  }

  /** Fallbacks to the JDK's stream since startup: 0 or 1. */
  public long fallbacks() {
    return fallbacks.get();
  }

  /** The reader in use, as the stop line and the control view name it: {@code spanflight} or {@code jdk}. */
  public String inUse() {
    return jdk ? "jdk" : "spanflight";
  }

  /** For the summary line: {@code reader=jdk (fallbacks 1)}. */
  public String describe() {
    return "reader=" + inUse() + " (" + choice.name().toLowerCase(Locale.ROOT) + ", fallbacks " + fallbacks.get() + ")";
  }
}
