package io.spanflight.internal.opamp;

/**
 * The server's reply, the fields of {@code ServerToAgent} that Spanflight reads (the others, such
 * as packages, connection settings and commands, are skipped on decoding). A part the server did
 * not send is null; {@code instanceUid} is empty then. Byte arrays are not copied.
 *
 * <p>Not API: internal to Spanflight.
 *
 * @param flags the {@code ServerToAgentFlags} bits, {@link #FLAG_REPORT_FULL_STATE}
 * @param capabilities the {@code ServerCapabilities} bits
 * @param newInstanceUid the 16 bytes the agent must use from now on, or null
 */
public record ServerToAgent(byte[] instanceUid, ServerErrorResponse error, AgentRemoteConfig remoteConfig,
    long flags, long capabilities, byte[] newInstanceUid) {
  /** The server lost track of the agent's state: the next request must carry all of it. */
  public static final long FLAG_REPORT_FULL_STATE = 1;
}
