package io.spanflight.internal.export;

import java.nio.charset.StandardCharsets;

/**
 * The {@code partial_success} of an {@code ExportProfilesServiceResponse} (field 1, holding
 * {@code int64 rejected_profiles = 1} and {@code string error_message = 2}), read by hand like the
 * request is written. Anything unreadable counts as full success: the collector said 200/OK.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class PartialSuccess {
  static final PartialSuccess NONE = new PartialSuccess(0, "");

  private final long rejectedProfiles;
  private final String errorMessage;

  private PartialSuccess(long rejectedProfiles, String errorMessage) {
    this.rejectedProfiles = rejectedProfiles;
    this.errorMessage = errorMessage;
  }

  /** Parses a serialized {@code ExportProfilesServiceResponse}; null or empty is full success. */
  public static PartialSuccess parse(byte[] response) {
    if (response == null || response.length == 0) {
      return NONE;
    }
    try {
      Reader outer = new Reader(response, 0, response.length);
      while (outer.more()) {
        int tag = (int) outer.varint();
        if (tag == (1 << 3 | 2)) { // partial_success, length-delimited
          int length = (int) outer.varint();
          return readPartialSuccess(new Reader(response, outer.pos, outer.pos + length));
        }
        outer.skip(tag & 7);
      }
      return NONE;
    } catch (RuntimeException e) { // truncated or not protobuf: the status already said success
      return NONE;
    }
  }

  private static PartialSuccess readPartialSuccess(Reader r) {
    long rejected = 0;
    String message = "";
    while (r.more()) {
      int tag = (int) r.varint();
      if (tag == (1 << 3)) {
        rejected = r.varint();
      } else if (tag == (2 << 3 | 2)) {
        int length = (int) r.varint();
        message = new String(r.bytes, r.pos, length, StandardCharsets.UTF_8);
        r.pos += length;
      } else {
        r.skip(tag & 7);
      }
    }
    return new PartialSuccess(rejected, message);
  }

  public long rejectedProfiles() {
    return rejectedProfiles;
  }

  public String errorMessage() {
    return errorMessage;
  }

  /** A minimal protobuf wire reader over a slice of a byte array. */
  private static final class Reader {
    final byte[] bytes;
    final int end;
    int pos;

    Reader(byte[] bytes, int from, int end) {
      if (end > bytes.length || from > end) {
        throw new IllegalArgumentException("truncated message");
      }
      this.bytes = bytes;
      this.pos = from;
      this.end = end;
    }

    boolean more() {
      return pos < end;
    }

    long varint() {
      long value = 0;
      for (int shift = 0; shift < 64; shift += 7) {
        if (pos >= end) {
          throw new IllegalArgumentException("truncated varint");
        }
        byte b = bytes[pos++];
        value |= (long) (b & 0x7f) << shift;
        if (b >= 0) {
          return value;
        }
      }
      throw new IllegalArgumentException("malformed varint");
    }

    void skip(int wireType) {
      switch (wireType) {
        case 0:
          varint();
          break;
        case 1:
          pos += 8;
          break;
        case 2:
          pos += (int) varint();
          break;
        case 5:
          pos += 4;
          break;
        default:
          throw new IllegalArgumentException("unsupported wire type " + wireType);
      }
    }
  }
}
