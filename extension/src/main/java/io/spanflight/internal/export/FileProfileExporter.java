package io.spanflight.internal.export;

import io.opentelemetry.sdk.common.CompletableResultCode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Writes each request as one binary OTLP file, {@code spanflight-<epoch millis>-<n>.binpb}
 * (a serialized {@code ExportProfilesServiceRequest}), into a directory. Files appear whole: each
 * is written under a temporary name and then renamed.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class FileProfileExporter implements ProfileExporter {
  public static final String SUFFIX = ".binpb";
  private static final Logger logger = Logger.getLogger(FileProfileExporter.class.getName());

  private final Path directory;
  private final AtomicLong sequence = new AtomicLong();
  private final ThrottledLogger failures = new ThrottledLogger(logger, 1, TimeUnit.MINUTES);

  public FileProfileExporter(Path directory) {
    this.directory = directory;
  }

  @Override
  public String destination() {
    return "file " + directory.toAbsolutePath();
  }

  @Override
  public CompletableResultCode export(byte[] request) {
    String name = "spanflight-" + System.currentTimeMillis() + "-" + sequence.incrementAndGet();
    try {
      Files.createDirectories(directory);
      Path temporary = directory.resolve(name + ".tmp");
      Files.write(temporary, request);
      Files.move(temporary, directory.resolve(name + SUFFIX), StandardCopyOption.ATOMIC_MOVE);
      return CompletableResultCode.ofSuccess();
    } catch (IOException | RuntimeException e) {
      failures.log(Level.WARNING, "Spanflight could not write profiles to " + directory, e);
      return CompletableResultCode.ofFailure();
    }
  }

  @Override
  public CompletableResultCode shutdown() {
    return CompletableResultCode.ofSuccess();
  }
}
