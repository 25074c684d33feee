package io.spanflight.internal.jfr.chunk;

import java.io.IOException;

/**
 * JFR's repository is not one Spanflight reads from: a symbolic link, or a directory other users
 * can write (see {@link RepositoryFollower}). The message says which and where.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class UntrustedRepositoryException extends IOException {
  private static final long serialVersionUID = 1L;

  public UntrustedRepositoryException(String message) {
    super(message);
  }
}
