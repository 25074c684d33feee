package io.spanflight.internal.jfr;

import io.spanflight.internal.jfr.chunk.ChunkReader;
import io.spanflight.internal.jfr.chunk.ConstantStore;
import io.spanflight.internal.jfr.chunk.Expected;
import io.spanflight.internal.jfr.clock.CalibrationEvent;
import io.spanflight.internal.jfr.join.SampleJoiner;
import io.spanflight.internal.logging.ThrottledLogger;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Hands what {@link ChunkReader} reads of our recording to its handlers: each source's events to
 * the {@link SampleJoiner} (or, for {@code jdk.MethodTiming}, to {@link MethodTimingDeltas}),
 * calibrations to the joiner's clock, {@code jdk.ActiveSetting} to {@link EffectiveSettings}, the
 * CPU-time sampler's lost samples ({@code jdk.CPUTimeSamplesLost}) to the joiner's count.
 * Each subscription asks the reader for only the fields its handler needs. An event whose handler
 * fails is counted and skipped (logged at most once a minute), so that one bad event cannot end
 * the reading. Runs on the JFR consumer thread.
 *
 * <p>Not API: internal to Spanflight.
 */
final class ReaderEvents implements ChunkReader.Events {
  /** Fields of a source's events, in this order; an empty name asks for nothing (the value is -1). */
  static final int START = 0;
  static final int THREAD = 1;
  static final int STACK = 2;
  static final int DURATION = 3;
  private static final int VALUE = 4;
  private static final int LEAF = 5;
  private static final int DETAIL = 6;
  private static final int PORT = 7;
  private static final Logger logger = Logger.getLogger(ReaderEvents.class.getName());

  private final ThrottledLogger failures = new ThrottledLogger(logger, 1, TimeUnit.MINUTES);
  private long failed;

  private final List<JfrSource> sources;
  private final SampleJoiner joiner;
  private final MethodTimingDeltas methodTiming;
  private final EffectiveSettings inForce;
  private final ConstantStore store;
  private final ChunkReader reader;
  private final Subscriptions subscriptions;

  ReaderEvents(List<JfrSource> sources, SampleJoiner joiner, MethodTimingDeltas methodTiming,
      EffectiveSettings inForce) {
    this.sources = List.copyOf(sources);
    this.joiner = joiner;
    this.methodTiming = methodTiming;
    this.inForce = inForce;
    this.store = joiner.store();
    this.subscriptions = Subscriptions.of(this.sources);
    this.reader = subscriptions.reader(store, this).inTimeOrder();
  }

  /**
   * What the reader is asked for: one subscription per source (its fields in the order above,
   * or {@code jdk.MethodTiming}'s), then the calibration, {@code jdk.ActiveSetting} and, with the
   * CPU-time sampler on, {@code jdk.CPUTimeSamplesLost} (-1 without it), each field
   * with what it must be (a chunk whose metadata says otherwise is one our reader cannot read:
   * see {@code jfr.join.JfrReaders}). The diagnostic mode reader-only subscribes with the same list.
   *
   * @param methodTimings per source subscription, whether it is {@code jdk.MethodTiming}: decided
   *     once here, not per event
   * @param losing the source whose lost samples {@code jdk.CPUTimeSamplesLost} reports, or null
   *     (then that event is not subscribed to)
   */
  record Subscriptions(String[] names, String[][] fields, Expected[][] expected, boolean[] methodTimings,
      int calibration, int activeSetting, JfrSource losing) {
    static Subscriptions of(List<JfrSource> sources) {
      List<String> names = new ArrayList<>();
      List<String[]> fields = new ArrayList<>();
      List<Expected[]> expected = new ArrayList<>();
      boolean[] methodTimings = new boolean[sources.size()];
      for (JfrSource source : sources) {
        boolean methodTiming = source.eventName.equals(JfrSources.METHOD_TIMING);
        methodTimings[names.size()] = methodTiming;
        names.add(source.eventName);
        if (methodTiming) {
          fields.add(new String[] {"startTime", "method", "invocations", "average"});
          expected.add(new Expected[] {Expected.NUMBER, Expected.METHOD, Expected.NUMBER, Expected.NUMBER});
        } else {
          fields.add(new String[] {"startTime", source.threadField, "stackTrace", JfrSources.DURATION,
              weighsDuration(source) ? "" : orNothing(source.valueField), orNothing(source.leafMethodField),
              source.detailField, source.portField});
          // an instant event has no duration; a value field missing is counted as a drop (see sample)
          expected.add(new Expected[] {Expected.NUMBER, Expected.THREAD, Expected.STACK_TRACE,
              Expected.NUMBER_IF_PRESENT, Expected.NUMBER_IF_PRESENT, Expected.METHOD, Expected.STRING_IF_PRESENT,
              Expected.NUMBER_IF_PRESENT});
        }
      }
      int calibration = names.size();
      names.add(CalibrationEvent.NAME);
      fields.add(new String[] {"startTime", "nanoTime"});
      expected.add(new Expected[] {Expected.NUMBER, Expected.NUMBER});
      int activeSetting = names.size();
      names.add(EffectiveSettings.ACTIVE_SETTING);
      fields.add(new String[] {"startTime", "id", "name", "value"});
      expected.add(new Expected[] {Expected.NUMBER, Expected.NUMBER, Expected.STRING, Expected.STRING});
      JfrSource losing = JfrSources.losingSamples(sources);
      if (losing != null) {
        names.add(JfrSources.CPU_TIME_SAMPLES_LOST);
        fields.add(new String[] {"startTime", "lostSamples"});
        expected.add(new Expected[] {Expected.NUMBER, Expected.NUMBER});
      }
      return new Subscriptions(names.toArray(String[]::new), fields.toArray(String[][]::new),
          expected.toArray(Expected[][]::new), methodTimings, calibration, activeSetting, losing);
    }

    /** The subscription to {@code jdk.CPUTimeSamplesLost}, the last one, or -1 without a {@link #losing} source. */
    int samplesLost() {
      return losing == null ? -1 : activeSetting + 1;
    }

    ChunkReader reader(ConstantStore store, ChunkReader.Events events) {
      return new ChunkReader(store, names, fields, expected, events);
    }

    /** Whether {@code subscription} is a source's {@code jdk.MethodTiming}. */
    boolean isMethodTiming(int subscription) {
      return subscription < calibration && methodTimings[subscription];
    }

    /** Whether {@code subscription} is a source's whose events are samples (not {@code jdk.MethodTiming}). */
    boolean isSample(int subscription) {
      return subscription < calibration && !methodTimings[subscription];
    }
  }

  private static String orNothing(String field) {
    return field == null ? "" : field;
  }

  /** Whether the source's events weigh their duration, which is asked for anyway. */
  private static boolean weighsDuration(JfrSource source) {
    return JfrSources.DURATION.equals(source.valueField);
  }

  /** The reader that hands its events here, in time order. */
  ChunkReader reader() {
    return reader;
  }

  @Override
  public void event(int subscription, long[] values) {
    try {
      handle(subscription, values);
    } catch (RuntimeException e) {
      failed++;
      failures.log(Level.WARNING, "Spanflight skipped a JFR event it could not handle (" + failed + " so far)", e);
    }
  }

  private void handle(int subscription, long[] values) {
    if (subscription == subscriptions.calibration()) {
      joiner.onCalibration(values[START], values[1]);
    } else if (subscription == subscriptions.activeSetting()) {
      if (values[2] >= 0 && values[3] >= 0) {
        inForce.onActiveSetting(values[1], store.string((int) values[2]), values[START], store.string((int) values[3]));
      }
    } else if (subscription == subscriptions.samplesLost()) {
      joiner.onSamplesLost(subscriptions.losing(), values[1]);
    } else {
      if (subscriptions.isMethodTiming(subscription)) {
        methodTiming.onEvent(joiner.stacks(), reader.method(values[1]), values[2], values[3], reader.nanos(values[START]));
      } else {
        sample(sources.get(subscription), values);
      }
    }
  }

  private void sample(JfrSource source, long[] values) {
    long thread = values[THREAD];
    long javaThreadId = reader.knowsThread(thread) ? reader.javaThreadId(thread) : SampleJoiner.NO_THREAD;
    int leaf = source.leafMethodField == null ? -1 : reader.method(values[LEAF]);
    long value = source.valueField == null ? 1 : values[weighsDuration(source) ? DURATION : VALUE];
    if (value < 0) { // the field is missing (another JDK's event) or holds no value: no weight to give
      joiner.dropWithoutWeight();
      return;
    }
    joiner.onEvent(source, javaThreadId, reader.virtual(thread), reader.stack(values[STACK]), leaf, values[START],
        reader.nanos(values[START]), values[DURATION], value, detail(source, values));
  }

  /** What a socket or file event waited on ({@code address:port}, a path), or null. */
  private String detail(JfrSource source, long[] values) {
    if (source.detailField.isEmpty() || values[DETAIL] < 0) {
      return null;
    }
    String detail = store.string((int) values[DETAIL]);
    return source.portField.isEmpty() || values[PORT] < 0 ? detail : detail + ":" + values[PORT];
  }
}
