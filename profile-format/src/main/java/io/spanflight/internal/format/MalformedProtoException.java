package io.spanflight.internal.format;

import java.io.IOException;

/**
 * Bytes are not the protobuf message they should be: bad wire encoding (a truncated field, a
 * length past the end of its message, a varint longer than 10 bytes, a wire type the field cannot
 * have), or a value outside the bounds its reader sets. The message says what and, for encoding
 * errors found by {@link ProtoReader}, at which byte. Readers of particular messages may throw
 * subclasses that say which kind of input it was.
 *
 * <p>Not API: internal to Spanflight.
 */
public class MalformedProtoException extends IOException {
  private static final long serialVersionUID = 1L;

  public MalformedProtoException(String message) {
    super(message);
  }
}
