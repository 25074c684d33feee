package io.spanflight.internal.report;

import java.io.IOException;

/**
 * A file is not a valid serialized {@code ExportProfilesServiceRequest}: bad protobuf encoding,
 * or an index outside its dictionary table.
 *
 * <p>Not API: internal to Spanflight.
 */
final class MalformedProfileException extends IOException {
  private static final long serialVersionUID = 1L;

  MalformedProfileException(String message) {
    super(message);
  }
}
