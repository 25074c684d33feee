package io.spanflight.internal.report;

import io.spanflight.internal.format.MalformedProtoException;

/**
 * A file is not a valid serialized {@code ExportProfilesServiceRequest}: bad protobuf encoding
 * (the reader's {@link MalformedProtoException}, its message kept), or an index outside its
 * dictionary table.
 *
 * <p>Not API: internal to Spanflight.
 */
final class MalformedProfileException extends MalformedProtoException {
  private static final long serialVersionUID = 1L;

  MalformedProfileException(String message) {
    super(message);
  }
}
