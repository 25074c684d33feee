package io.spanflight.internal.report;

import java.nio.charset.StandardCharsets;

/**
 * Says what a file that is not a binary OTLP profiles request looks like instead, from its first
 * bytes, so that the one line naming it says something useful: OTLP/JSON, gzip (the file exporter's
 * pprof files), a JFR recording, or an empty file.
 *
 * <p>Not API: internal to Spanflight.
 */
final class InputKind {
  private static final byte[] JFR_MAGIC = "FLR\0".getBytes(StandardCharsets.ISO_8859_1);

  private InputKind() {}

  /** What is wrong with {@code bytes}, given the decoder's {@code problem}. */
  static String explain(byte[] bytes, String problem) {
    String other = otherFormat(bytes);
    if (other != null) {
      return other + ", not a binary OTLP profiles request (the report reads " + ReportInputs.SUFFIX + " files)";
    }
    return "not an OTLP profiles request (" + problem + ")";
  }

  private static String otherFormat(byte[] bytes) {
    if (bytes.length == 0) {
      return "an empty file";
    }
    if (bytes.length >= 2 && (bytes[0] & 0xFF) == 0x1F && (bytes[1] & 0xFF) == 0x8B) {
      return "gzip data (a pprof .pb.gz file?)";
    }
    if (startsWith(bytes, JFR_MAGIC)) {
      return "a JFR recording";
    }
    return looksLikeJson(bytes) ? "JSON (an OTLP/JSON .json file?)" : null;
  }

  /** Text (the first bytes are printable ASCII or white space) whose first character opens JSON. */
  private static boolean looksLikeJson(byte[] bytes) {
    int start = -1;
    for (int i = 0; i < Math.min(bytes.length, 64); i++) {
      byte b = bytes[i];
      boolean space = b == ' ' || b == '\t' || b == '\n' || b == '\r';
      if (!space && (b < 0x20 || b > 0x7E)) {
        return false;
      }
      if (start < 0 && !space) {
        start = i;
      }
    }
    return start >= 0 && (bytes[start] == '{' || bytes[start] == '[');
  }

  private static boolean startsWith(byte[] bytes, byte[] prefix) {
    if (bytes.length < prefix.length) {
      return false;
    }
    for (int i = 0; i < prefix.length; i++) {
      if (bytes[i] != prefix[i]) {
        return false;
      }
    }
    return true;
  }
}
