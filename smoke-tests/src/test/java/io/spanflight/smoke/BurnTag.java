package io.spanflight.smoke;

import io.spanflight.smoke.app.propagation.RequestTag;
import io.spanflight.smoke.app.propagation.Role;
import io.spanflight.smoke.app.propagation.SpanWork;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a sample's stack says about the work it caught: which {@link SpanWork} method (so which
 * span role), and which request, read from the {@link RequestTag} digit frames below it.
 *
 * @param role the role of the leaf-most burn frame
 * @param id the request id, or -1 when the digit frames are missing or interrupted
 */
record BurnTag(Role role, int id) {
  private static final Map<String, Role> BURN_FRAMES =
      Map.of(SpanWork.SERVER, Role.SERVER, SpanWork.OUTER, Role.OUTER, SpanWork.INNER, Role.INNER);
  private static final String TAG_CLASS = RequestTag.class.getName() + ".";
  private static final String ROLE_CLASS = Role.class.getName() + ".";

  boolean decoded() {
    return id >= 0;
  }

  /** The tag of a stack (frames leaf first), or empty when no burn method is on it. */
  static Optional<BurnTag> of(List<String> frames) {
    for (int i = 0; i < frames.size(); i++) {
      Role role = BURN_FRAMES.get(frames.get(i));
      if (role != null) {
        return Optional.of(new BurnTag(role, idBelow(frames, i + 1)));
      }
    }
    return Optional.empty();
  }

  /** Reads {@link RequestTag#DIGITS} digit frames from {@code from} on, least significant first. */
  private static int idBelow(List<String> frames, int from) {
    int id = 0;
    int digits = 0;
    for (int i = from; i < frames.size() && digits < RequestTag.DIGITS; i++) {
      String frame = frames.get(i);
      if (frame.startsWith(RequestTag.DIGIT_FRAME_PREFIX)
          && frame.length() == RequestTag.DIGIT_FRAME_PREFIX.length() + 1) {
        id |= Character.digit(frame.charAt(frame.length() - 1), 16) << (4 * digits);
        digits++;
      } else if (!frame.startsWith(TAG_CLASS) && !frame.startsWith(ROLE_CLASS)) {
        return -1; // another method between the digits: not our encoding
      }
    }
    return digits == RequestTag.DIGITS ? id : -1;
  }
}
