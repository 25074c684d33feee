package io.spanflight.internal.report;

/**
 * What the report reads at most, so that hostile or broken input costs bounded time and memory:
 * how many files, how many bytes per file, how deeply an attribute value may nest, how many
 * frames the stacks of one file may expand to (a stack may repeat a location that has many lines,
 * so a few bytes can stand for millions of frames), and how large the call tree of all files may
 * grow. Decoding is otherwise linear in the file size.
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
   * file written by Spanflight expands to fewer frames than it has bytes. Each frame may become a
   * node of the report's call tree (some 60 bytes of heap at worst), so this bounds the tree too.
   */
  static final long FRAMES_PER_BYTE = 1;

  /**
   * Distinct call paths (nodes of the call tree all files share): a real report has some
   * thousands to a few millions; each costs up to some 60 bytes of heap and 15 of HTML.
   */
  static final long DEFAULT_MAX_CALL_TREE_NODES = 10_000_000;

  static final ReportLimits DEFAULT = new ReportLimits(DEFAULT_MAX_FILES, DEFAULT_MAX_FILE_BYTES);

  final int maxFiles;
  final long maxFileBytes;
  final long maxCallTreeNodes;

  ReportLimits(int maxFiles, long maxFileBytes) {
    this(maxFiles, maxFileBytes, DEFAULT_MAX_CALL_TREE_NODES);
  }

  ReportLimits(int maxFiles, long maxFileBytes, long maxCallTreeNodes) {
    if (maxFiles < 1 || maxFileBytes < 1 || maxCallTreeNodes < 1) {
      throw new IllegalArgumentException("limits must be positive: " + maxFiles + " files, " + maxFileBytes
          + " bytes, " + maxCallTreeNodes + " nodes");
    }
    this.maxFiles = maxFiles;
    this.maxFileBytes = Math.min(maxFileBytes, Integer.MAX_VALUE - 16); // one Java array
    this.maxCallTreeNodes = maxCallTreeNodes;
  }

  /** The frames the stacks of a file of {@code bytes} bytes may expand to. */
  static long frameBudget(int bytes) {
    return BASE_FRAMES + FRAMES_PER_BYTE * bytes;
  }

  static String megabytes(long bytes) {
    return bytes % (1 << 20) == 0 ? (bytes >> 20) + " MiB" : bytes + " bytes";
  }
}
