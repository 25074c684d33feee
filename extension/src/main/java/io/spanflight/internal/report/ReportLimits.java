package io.spanflight.internal.report;

/**
 * What the report reads at most, so that hostile or broken input costs bounded time and memory:
 * how many files, how many bytes per file, how deeply an attribute value may nest, and how many
 * frames the stacks of one file may expand to (a stack may repeat a location that has many lines,
 * so a few bytes can stand for millions of frames). Decoding is otherwise linear in the file size.
 *
 * <p>Not API: internal to Spanflight.
 */
final class ReportLimits {
  static final int DEFAULT_MAX_FILES = 10_000;
  static final long DEFAULT_MAX_FILE_BYTES = 64L << 20;
  /** Arrays within arrays in an attribute value; ours are flat. */
  static final int MAX_VALUE_DEPTH = 32;
  /** Characters of an array attribute value kept; the rest is left out. */
  static final int MAX_VALUE_CHARS = 4096;
  /** Frames all stacks of a file may expand to, besides {@link #FRAMES_PER_BYTE} per byte. */
  static final long BASE_FRAMES = 1_000_000;
  /**
   * Each stack entry takes at least one byte and a location of a JVM frame has one line, so a
   * real file expands to fewer frames than it has bytes; two per byte leave room for inlining.
   */
  static final long FRAMES_PER_BYTE = 2;

  static final ReportLimits DEFAULT = new ReportLimits(DEFAULT_MAX_FILES, DEFAULT_MAX_FILE_BYTES);

  final int maxFiles;
  final long maxFileBytes;

  ReportLimits(int maxFiles, long maxFileBytes) {
    if (maxFiles < 1 || maxFileBytes < 1) {
      throw new IllegalArgumentException("limits must be positive: " + maxFiles + " files, " + maxFileBytes + " bytes");
    }
    this.maxFiles = maxFiles;
    this.maxFileBytes = Math.min(maxFileBytes, Integer.MAX_VALUE - 16); // one Java array
  }

  /** The frames the stacks of a file of {@code bytes} bytes may expand to. */
  static long frameBudget(int bytes) {
    return BASE_FRAMES + FRAMES_PER_BYTE * bytes;
  }

  static String megabytes(long bytes) {
    return bytes % (1 << 20) == 0 ? (bytes >> 20) + " MiB" : bytes + " bytes";
  }
}
