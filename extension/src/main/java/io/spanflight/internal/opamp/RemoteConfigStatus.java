package io.spanflight.internal.opamp;

import java.util.Objects;

/**
 * What became of the last remote configuration, OpAMP's {@code RemoteConfigStatus}: the hash it
 * came with (not copied), one of the status constants, and why it failed ({@code ""} unless
 * {@link #FAILED}).
 *
 * <p>Not API: internal to Spanflight.
 */
public record RemoteConfigStatus(byte[] lastRemoteConfigHash, int status, String errorMessage) {
  public static final int UNSET = 0;
  public static final int APPLIED = 1;
  public static final int APPLYING = 2;
  public static final int FAILED = 3;

  public RemoteConfigStatus {
    Objects.requireNonNull(lastRemoteConfigHash, "lastRemoteConfigHash");
    Objects.requireNonNull(errorMessage, "errorMessage");
  }
}
