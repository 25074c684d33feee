package io.spanflight.internal.bridge;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The Java side of the test-only native helper (src/test/c/record_reader.c), which reads the
 * calling thread's OTEP-4947 record as an external profiler would: by looking up the exported
 * TLS symbol {@code otel_thread_ctx_v1} in the loaded libspanflight.so.
 */
final class ExternalRecordReader {
  private static boolean loaded;

  private ExternalRecordReader() {}

  /** The calling thread's record (28 bytes + attrs), or null while its pointer is NULL. */
  static byte[] readOwnThread() {
    load();
    return readRecord(NativeLibrary.loadedFile().toString());
  }

  private static synchronized void load() {
    if (!loaded) {
      String path = System.getProperty("spanflight.test.reader");
      assumeTrue(path != null && Files.isRegularFile(Path.of(path)), "test reader not built: " + path);
      System.load(path);
      loaded = true;
    }
  }

  private static native byte[] readRecord(String libraryPath);
}
