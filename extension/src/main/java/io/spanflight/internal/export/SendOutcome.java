package io.spanflight.internal.export;

/**
 * How one attempt ended: delivered (possibly with profiles the collector rejected), failed in a way
 * worth retrying (collector unreachable, overloaded, too slow), or failed for good (the collector
 * refused the request itself).
 *
 * <p>Not API: internal to Spanflight.
 */
public final class SendOutcome {
  /** The three ends of an attempt. */
  public enum Kind {
    DELIVERED,
    RETRYABLE,
    FAILED
  }

  private final Kind kind;
  private final String description;
  private final long rejectedProfiles;

  private SendOutcome(Kind kind, String description, long rejectedProfiles) {
    this.kind = kind;
    this.description = description;
    this.rejectedProfiles = rejectedProfiles;
  }

  /** Accepted; {@code partial} is the collector's partial-success answer (may be empty). */
  public static SendOutcome delivered(PartialSuccess partial) {
    return new SendOutcome(Kind.DELIVERED, partial.errorMessage(), partial.rejectedProfiles());
  }

  /**
   * The collector's answer: {@code accepted} with its response {@code body} (a serialized
   * {@code ExportProfilesServiceResponse}), else a failure described by {@code status}.
   */
  static SendOutcome answered(boolean accepted, byte[] body, String status, boolean retryable) {
    if (accepted) {
      return delivered(PartialSuccess.parse(body));
    }
    return retryable ? retryable(status) : failed(status);
  }

  public static SendOutcome retryable(String description) {
    return new SendOutcome(Kind.RETRYABLE, description, 0);
  }

  public static SendOutcome failed(String description) {
    return new SendOutcome(Kind.FAILED, description, 0);
  }

  /** The same outcome with another description (the same with secrets masked). */
  SendOutcome describedAs(String description) {
    return new SendOutcome(kind, description, rejectedProfiles);
  }

  public Kind kind() {
    return kind;
  }

  /** Why it failed, or the collector's partial-success message ("" when none). */
  public String description() {
    return description;
  }

  /** Profiles the collector reported as rejected in a delivered request. */
  public long rejectedProfiles() {
    return rejectedProfiles;
  }

  @Override
  public String toString() {
    return kind + (description.isEmpty() ? "" : " (" + description + ")");
  }
}
