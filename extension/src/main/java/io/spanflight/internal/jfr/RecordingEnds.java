package io.spanflight.internal.jfr;

import io.spanflight.internal.jfr.chunk.RepositoryFollower;
import java.nio.file.Path;
import java.util.logging.Logger;
import jdk.jfr.Recording;
import jdk.jfr.RecordingState;

/**
 * The two ways our running recording ends without our asking, whichever reader reads it: JFR moved
 * its repository, or someone else closed the recording (JMC lists it like any other). Either way
 * the stream starts a new recording; each says so in one line.
 *
 * <p>Not API: internal to Spanflight.
 */
final class RecordingEnds {
  private RecordingEnds() {}

  /** True, and says so, when JFR no longer writes into {@code repository}. */
  static boolean repositoryMoved(Path repository, Logger logger) {
    if (RepositoryFollower.isCurrent(repository)) {
      return false;
    }
    logger.info("Spanflight: JFR moved its repository (jcmd JFR.configure); starting a new recording there");
    return true;
  }

  /** True, and says so unless the JVM is shutting down, when {@code ours} no longer runs. */
  static boolean closedBySomeoneElse(Recording ours, Logger logger) {
    if (ours.getState() == RecordingState.RUNNING) {
      return false;
    }
    if (!CloseSignal.jvmShuttingDown()) {
      logger.warning("Spanflight: its JFR recording was closed by someone else; starting a new one");
    }
    return true;
  }
}
