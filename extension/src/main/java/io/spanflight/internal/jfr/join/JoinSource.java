package io.spanflight.internal.jfr.join;

import io.spanflight.internal.config.SourceSettings;
import io.spanflight.internal.profile.SampleType;
import java.util.List;

/**
 * What the join needs to know of the source of an event: its name and cost kind, whether it is
 * watched for silence, whether it waits (lock, park, socket, file: left out on Spanflight's own
 * threads), its threshold, and its sample type at an instant (a periodic source's type names the
 * period in force then). The recording's {@code jfr.JfrSource} is the one implementation.
 *
 * <p>Not API: internal to Spanflight.
 */
public interface JoinSource {
  /** Sources whose silence is watched ({@code jfr.BlindSources}), by index; their events are counted. */
  List<String> WATCHED = List.of(SourceSettings.CPU, SourceSettings.CPU_TIME, SourceSettings.ALLOCATION);

  /** The source's name, as in the configuration ({@link SourceSettings}). */
  String sourceName();

  /** Its {@code format.CostKind}, for the span cost table. */
  int costKind();

  /** Its index in {@link #WATCHED}, or -1. */
  int watched();

  /** Whether its events are waits (lock, park, socket, file). */
  boolean waits();

  /** Whether an event of {@code durationNanos} is below our threshold (another recording asked for a lower one). */
  boolean belowOurThreshold(long durationNanos);

  /** Whether its sample type can be told now: it has no period, or JFR has reported the period in force. */
  boolean periodKnown();

  /** Its sample type for an event at {@code ticks}. */
  SampleType typeAt(long ticks);
}
