package io.spanflight.internal.jfr;

import io.spanflight.internal.config.SourceSettings;
import io.spanflight.internal.costs.SourceCostKind;
import io.spanflight.internal.format.CostKind;
import io.spanflight.internal.jfr.join.JoinSource;
import io.spanflight.internal.profile.SampleType;
import java.util.Set;
import java.util.function.LongFunction;

/**
 * One JFR event type and how its events become samples: which thread field to join on (the
 * sampled thread for sample events, the event thread for duration events), the sample type of the
 * profile it feeds, the value of each sample, and the JFR setting that enables it at our rate.
 *
 * <p>JFR runs every event type at the union of all running recordings' settings, so what arrives
 * may be denser than what we asked for. Two kinds of sources correct for that:
 *
 * <ul>
 *   <li>periodic sources (execution, native, CPU-time samples) weigh each sample with the period
 *       in force at its time ({@link #inForce}, fed by {@code jdk.ActiveSetting}): the profile's
 *       {@code period} is the effective one, and an interval in which it changed is split into one
 *       profile per period;
 *   <li>threshold sources (lock, park, socket, file) drop events shorter than our own threshold,
 *       which another recording's lower threshold lets through.
 * </ul>
 *
 * <p>Not API: internal to Spanflight.
 */
final class JfrSource implements JoinSource {
  static final String SAMPLED_THREAD = "sampledThread";
  static final String EVENT_THREAD = "eventThread";
  private static final int CACHED_TYPES = 4;
  private static final Set<String> WAIT_SOURCES =
      Set.of(SourceSettings.LOCK, SourceSettings.PARK, SourceSettings.SOCKET, SourceSettings.FILE);

  /** The configured source this event belongs to ({@code cpu}, {@code lock}, ...). */
  final String sourceName;
  final String eventName;
  final String threadField;
  final SampleType type;
  /**
   * The event field each sample weighs ({@code weight} in bytes, {@code duration} or {@code
   * samplingPeriod} in nanoseconds), or null: each sample weighs 1.
   */
  final String valueField;
  final String setting;
  /** The value we ask JFR for (the configured one, or the default.jfc cap). */
  final String settingValue;
  /** A method field to show as the leaf frame (MethodTrace stacks start at the caller), or null. */
  final String leafMethodField;
  /** For periodic sources: the sample type for a period in nanoseconds; else null. */
  final LongFunction<SampleType> typeForPeriod;
  /** For threshold sources: shorter events are not ours and are dropped; else 0. */
  final long minDurationNanos;
  /** What this source's events cost a span ({@link CostKind}), or {@link CostKind#NONE}. */
  final int costKind;
  /**
   * Whether its events are a thread waiting (lock, park, socket, file): such events of
   * Spanflight's own threads are left out ({@link io.spanflight.internal.threads.OwnThreads}).
   */
  final boolean waits;
  /**
   * The string field naming what its events waited on, for inferred spans: {@code address} of a
   * socket event, {@code path} of a file event; else the empty string (nothing asked).
   */
  final String detailField;
  /** The number field that goes with it ({@code port} of a socket event), or the empty string. */
  final String portField;
  /** Its index among {@link JoinSource#WATCHED}, or -1: sources whose silence is watched. */
  final int watched;
  /** Our setting's value as JFR applies it, over time. */
  final SettingHistory inForce = new SettingHistory();

  private final long[] cachedPeriods = new long[CACHED_TYPES];
  private final SampleType[] cachedTypes = new SampleType[CACHED_TYPES];
  private int nextCached;

  JfrSource(
      String sourceName,
      String eventName,
      String threadField,
      SampleType type,
      String valueField,
      String setting,
      String settingValue,
      String leafMethodField) {
    this(sourceName, eventName, threadField, type, valueField, setting, settingValue, leafMethodField, null, 0);
  }

  JfrSource(
      String sourceName,
      String eventName,
      String threadField,
      SampleType type,
      String valueField,
      String setting,
      String settingValue,
      String leafMethodField,
      LongFunction<SampleType> typeForPeriod,
      long minDurationNanos) {
    this.sourceName = sourceName;
    this.eventName = eventName;
    this.threadField = threadField;
    this.type = type;
    this.valueField = valueField;
    this.setting = setting;
    this.settingValue = settingValue;
    this.leafMethodField = leafMethodField;
    this.typeForPeriod = typeForPeriod;
    this.minDurationNanos = minDurationNanos;
    this.costKind = SourceCostKind.of(sourceName);
    this.waits = WAIT_SOURCES.contains(sourceName);
    boolean socket = eventName.startsWith("jdk.Socket");
    this.detailField = socket ? "address" : eventName.startsWith("jdk.File") ? "path" : "";
    this.portField = socket ? "port" : "";
    this.watched = JoinSource.WATCHED.indexOf(sourceName);
  }

  @Override
  public String sourceName() {
    return sourceName;
  }

  @Override
  public int costKind() {
    return costKind;
  }

  @Override
  public int watched() {
    return watched;
  }

  @Override
  public boolean waits() {
    return waits;
  }

  @Override
  public boolean periodKnown() {
    return typeForPeriod == null || inForce.changes() > 0;
  }

  /**
   * The sample type of an event at JFR tick time {@code ticks}: for periodic sources, the one
   * whose period is the period in force then (ours until JFR reports otherwise).
   */
  @Override
  public SampleType typeAt(long ticks) {
    if (typeForPeriod == null) {
      return type;
    }
    long period = JfrValues.nanos(inForce.valueAt(ticks));
    return period > 0 ? typeForPeriod(period) : type;
  }

  /** True when an event of {@code durationNanos} is shorter than our threshold (another recording asked for it). */
  @Override
  public boolean belowOurThreshold(long durationNanos) {
    return minDurationNanos > 0 && durationNanos < minDurationNanos;
  }

  private SampleType typeForPeriod(long period) {
    for (int i = 0; i < CACHED_TYPES; i++) {
      if (cachedTypes[i] != null && cachedPeriods[i] == period) {
        return cachedTypes[i];
      }
    }
    SampleType t = typeForPeriod.apply(period);
    cachedPeriods[nextCached] = period;
    cachedTypes[nextCached] = t;
    nextCached = (nextCached + 1) % CACHED_TYPES;
    return t;
  }

  /** For the control view: {@code jdk.ExecutionSample#period: ours 20 ms, in force 10 ms}. */
  String describeInForce() {
    String current = inForce.current();
    String shown = current;
    long nanos = JfrValues.nanos(current);
    if (nanos >= 0) {
      shown = JfrValues.describe(nanos);
    }
    return eventName + "#" + setting + ": ours " + settingValue + ", in force " + (shown == null ? "(not reported yet)" : shown);
  }

  @Override
  public String toString() {
    return eventName + "(" + setting + "=" + settingValue + ") -> " + type;
  }
}
