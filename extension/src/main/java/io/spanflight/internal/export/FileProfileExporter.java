package io.spanflight.internal.export;

import io.opentelemetry.sdk.common.CompletableResultCode;
import io.spanflight.internal.config.SpanflightConfig.FileFormat;
import io.spanflight.internal.logging.ThrottledLogger;
import io.spanflight.internal.profile.OtlpJsonEncoder;
import io.spanflight.internal.profile.PprofEncoder;
import io.spanflight.internal.profile.ProfileInterval;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.zip.GZIPOutputStream;

/**
 * Writes each interval into a directory as files named {@code spanflight-<epoch millis>-<pid>-<n>}
 * plus, per format: {@code .binpb} (a serialized {@code ExportProfilesServiceRequest}), {@code
 * .json} (the same request as OTLP/JSON) and {@code -<sample type>.pb.gz} (gzipped pprof, one per
 * sample type). Files appear whole and new, {@code rw-------} (see {@link AtomicFileWriter}): a
 * file or symbolic link already at a name is never followed or overwritten; that file is skipped,
 * counted ({@link #refusedFiles()}) and logged (throttled). The directory is created owner-only.
 * Writing happens on the calling thread (Spanflight's export thread).
 *
 * <p>Not API: internal to Spanflight.
 */
public final class FileProfileExporter implements ProfileExporter {
  public static final String SUFFIX = ".binpb";
  public static final String JSON_SUFFIX = ".json";
  public static final String PPROF_SUFFIX = ".pb.gz";
  private static final Logger logger = Logger.getLogger(FileProfileExporter.class.getName());

  private static final long PID = ProcessHandle.current().pid();
  private final AtomicFileWriter writer;
  private final Set<FileFormat> formats;
  private final OtlpJsonEncoder json;
  private final AtomicLong sequence = new AtomicLong();
  private final ThrottledLogger failures = new ThrottledLogger(logger, 1, TimeUnit.MINUTES);
  private final ThrottledLogger refusals = new ThrottledLogger(logger, 1, TimeUnit.MINUTES);
  private final AtomicLong refused = new AtomicLong();
  private final LongSupplier clockMillis;

  /** Binary OTLP only. */
  public FileProfileExporter(Path directory) {
    this(directory, EnumSet.of(FileFormat.OTLP), null);
  }

  /**
   * @param json the OTLP/JSON encoder; needed only when {@code formats} holds {@code JSON}
   */
  public FileProfileExporter(Path directory, Set<FileFormat> formats, OtlpJsonEncoder json) {
    this(directory, formats, json, System::currentTimeMillis);
  }

  FileProfileExporter(Path directory, Set<FileFormat> formats, OtlpJsonEncoder json, LongSupplier clockMillis) {
    if (formats.contains(FileFormat.JSON) && json == null) {
      throw new IllegalArgumentException("the json format needs an OtlpJsonEncoder");
    }
    this.writer = new AtomicFileWriter(directory);
    this.formats = formats.isEmpty() ? EnumSet.noneOf(FileFormat.class) : EnumSet.copyOf(formats);
    this.json = json;
    this.clockMillis = clockMillis;
  }

  @Override
  public String destination() {
    return "file " + writer.directory().toAbsolutePath() + " " + formats.toString().toLowerCase(Locale.ROOT);
  }

  /** Writes the binary OTLP file only: the other formats need the interval. */
  @Override
  public CompletableResultCode export(byte[] request) {
    return export(request, null, 0);
  }

  @Override
  public CompletableResultCode export(byte[] request, ProfileInterval interval, long endEpochNanos) {
    // the pid keeps JVMs that share a directory from overwriting each other's files
    String name = "spanflight-" + clockMillis.getAsLong() + "-" + PID + "-" + sequence.incrementAndGet();
    try {
      boolean written = true;
      if (formats.contains(FileFormat.OTLP)) {
        written &= write(name + SUFFIX, request);
      }
      if (interval != null && formats.contains(FileFormat.JSON)) {
        written &= write(name + JSON_SUFFIX, json.encode(interval, endEpochNanos));
      }
      if (interval != null && formats.contains(FileFormat.PPROF)) {
        for (Map.Entry<String, byte[]> profile : PprofEncoder.encode(interval, endEpochNanos).entrySet()) {
          written &= write(name + "-" + profile.getKey() + PPROF_SUFFIX, gzip(profile.getValue()));
        }
      }
      return written ? CompletableResultCode.ofSuccess() : CompletableResultCode.ofFailure();
    } catch (IOException | RuntimeException e) {
      failures.log(Level.WARNING, "Spanflight could not write profiles to " + writer.directory(), e);
      return CompletableResultCode.ofFailure();
    }
  }

  /** Files not written because something (not ours) was already at their name. */
  public long refusedFiles() {
    return refused.get();
  }

  /** Writes one file; false if something is in the way, which is left alone. */
  private boolean write(String file, byte[] content) throws IOException {
    try {
      writer.write(file, content);
      return true;
    } catch (FileAlreadyExistsException e) {
      long count = refused.incrementAndGet();
      refusals.log(
          Level.WARNING,
          "Spanflight did not write " + e.getFile() + ": a file or symbolic link is already there (not"
              + " Spanflight's); it is left as it is (" + count + " file(s) refused so far)",
          null);
      return false;
    }
  }

  private static byte[] gzip(byte[] content) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(content.length / 4 + 64);
    try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
      gzip.write(content);
    }
    return out.toByteArray();
  }

  @Override
  public CompletableResultCode shutdown() {
    return CompletableResultCode.ofSuccess();
  }
}
