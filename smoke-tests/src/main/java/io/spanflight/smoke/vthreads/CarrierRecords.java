package io.spanflight.smoke.vthreads;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.Optional;

/**
 * Reads OTEP-4947 thread records as an external profiler would, through the test-only native
 * helper {@code libspanflight-smoke-records.so} (src/main/c/carrier_records.c) and the loaded
 * {@code libspanflight.so} found in {@code /proc/self/maps}. Called from a virtual thread it reads
 * the record of the carrier the virtual thread is mounted on.
 */
public final class CarrierRecords {
  /** A record's header: {@code valid} and the span id as lower-case hex. */
  public record Header(boolean valid, String spanId) {}

  private final String libraryPath;

  private CarrierRecords(String libraryPath) {
    this.libraryPath = libraryPath;
  }

  /**
   * The reader, or empty when the helper was not given ({@code -Dspanflight.smoke.records.lib}) or
   * Spanflight's native library is not loaded (the Java bridge).
   */
  public static Optional<CarrierRecords> open() {
    String helper = System.getProperty("spanflight.smoke.records.lib");
    if (helper == null || !Files.isRegularFile(Path.of(helper))) {
      return Optional.empty();
    }
    return loadedSpanflightLibrary().map(library -> {
      System.load(helper);
      return new CarrierRecords(library);
    });
  }

  /** Address of the calling OS thread's record (0: it never published one). */
  public long ownRecordAddress() {
    long address = ownRecordAddress(libraryPath);
    if (address < 0) {
      throw new IllegalStateException("otel_thread_ctx_v1 not found in " + libraryPath);
    }
    return address;
  }

  /** The header of the record at {@code address} (from {@link #ownRecordAddress()}). */
  public Header headerAt(long address) {
    byte[] header = recordHeaderAt(address);
    return new Header(header[24] == 1, HexFormat.of().formatHex(header, 16, 24));
  }

  private static Optional<String> loadedSpanflightLibrary() {
    try {
      return Files.readAllLines(Path.of("/proc/self/maps")).stream()
          .map(line -> line.substring(line.indexOf('/') < 0 ? line.length() : line.indexOf('/')))
          .filter(path -> path.endsWith("/libspanflight.so"))
          .findFirst();
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private static native long ownRecordAddress(String libraryPath);

  private static native byte[] recordHeaderAt(long address);
}
