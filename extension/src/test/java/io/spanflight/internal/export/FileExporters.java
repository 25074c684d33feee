package io.spanflight.internal.export;

import io.spanflight.internal.config.SpanflightConfig.FileFormat;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.function.LongSupplier;

/** For tests in other packages: a file exporter whose file names a test can predict. */
public final class FileExporters {
  private FileExporters() {}

  /** Binary OTLP files named {@code spanflight-<clockMillis>-<pid>-<n>.binpb}. */
  public static FileProfileExporter withClock(Path directory, LongSupplier clockMillis) {
    return new FileProfileExporter(directory, EnumSet.of(FileFormat.OTLP), null, clockMillis);
  }
}
