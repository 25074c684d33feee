package io.spanflight.internal.jfr;

import io.spanflight.internal.jfr.chunk.ConstantStore;
import io.spanflight.internal.jfr.chunk.RecordedConstants;
import io.spanflight.internal.jfr.clock.CalibrationEvent;
import io.spanflight.internal.jfr.join.SampleJoiner;
import io.spanflight.internal.logging.ThrottledLogger;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import jdk.jfr.Timespan;
import jdk.jfr.ValueDescriptor;
import jdk.jfr.consumer.EventStream;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedThread;

/**
 * What {@link ReaderEvents} does for Spanflight's own reader, for the JDK's event stream (the
 * reader {@code jfr.join.JfrReaders} falls back to): each source's events to the {@link SampleJoiner} (or,
 * for {@code jdk.MethodTiming}, to {@link MethodTimingDeltas}), calibrations to the joiner's clock,
 * {@code jdk.ActiveSetting} to {@link EffectiveSettings}, {@code jdk.CPUTimeSamplesLost} to the
 * joiner's count, with the same values: the thread's Java
 * id ({@code sampledThread} or {@code eventThread}, as the source says) and whether it is virtual,
 * the start in ticks ({@code getLong("startTime")}, what the chunk holds) and in epoch nanoseconds,
 * the duration in nanoseconds, the weight, and the stack and leaf interned in the joiner's store
 * ({@link RecordedConstants}). So a sample is joined to the same span whichever reader read it.
 *
 * <p>Events that end at or before {@link #skipUpTo} ticks were handed out by the reader this one
 * took over from, and are skipped. An event whose handler fails is counted and skipped (logged at
 * most once a minute). Runs on the thread the stream delivers on.
 *
 * <p>Not API: internal to Spanflight.
 */
final class JdkStreamEvents {
  private static final Logger logger = Logger.getLogger(JdkStreamEvents.class.getName());

  private final ThrottledLogger failures = new ThrottledLogger(logger, 1, TimeUnit.MINUTES);
  private long failed;
  private long skipped;

  private final List<JfrSource> sources;
  private final SampleJoiner joiner;
  private final MethodTimingDeltas methodTiming;
  private final EffectiveSettings inForce;
  private final ConstantStore store;
  private final RecordedConstants constants;
  private final long skipUpTo;
  /** The CPU-time sampler's source, whose lost samples are counted; null when it is off. */
  private final JfrSource losing;
  /** Whether this JVM's threads have JFR's {@code virtual} field (JDK 21 on); null until known. */
  private Boolean threadsHaveVirtual;

  /** @param skipUpTo events ending at or before this many ticks are skipped; Long.MIN_VALUE for none */
  JdkStreamEvents(List<JfrSource> sources, SampleJoiner joiner, MethodTimingDeltas methodTiming,
      EffectiveSettings inForce, long skipUpTo) {
    this.sources = List.copyOf(sources);
    this.joiner = joiner;
    this.methodTiming = methodTiming;
    this.inForce = inForce;
    this.store = joiner.store();
    this.constants = new RecordedConstants(store);
    this.skipUpTo = skipUpTo;
    this.losing = JfrSources.losingSamples(this.sources);
  }

  /** Asks {@code stream} for the events of every source, the calibrations and the active settings. */
  void subscribe(EventStream stream) {
    for (JfrSource source : sources) {
      if (source.eventName.equals(JfrSources.METHOD_TIMING)) {
        stream.onEvent(source.eventName, event -> handle(event, null));
      } else {
        SourceFields fields = new SourceFields(source);
        stream.onEvent(source.eventName, event -> handle(event, fields));
      }
    }
    stream.onEvent(CalibrationEvent.NAME, event -> handle(event, null));
    stream.onEvent(EffectiveSettings.ACTIVE_SETTING, event -> handle(event, null));
    if (losing != null) {
      stream.onEvent(JfrSources.CPU_TIME_SAMPLES_LOST, event -> handle(event, null));
    }
    stream.onFlush(constants::forget);
  }

  /** Events skipped because the reader before this one had handed them out. */
  long skipped() {
    return skipped;
  }

  private void handle(RecordedEvent event, SourceFields fields) {
    try {
      long start = event.getLong("startTime");
      if (skipUpTo != Long.MIN_VALUE && start + Math.max(0, durationTicks(event)) <= skipUpTo) {
        skipped++;
        return;
      }
      String name = event.getEventType().getName();
      if (fields != null) {
        sample(fields, event, start);
      } else if (name.equals(CalibrationEvent.NAME)) {
        joiner.onCalibration(start, event.getLong("nanoTime"));
      } else if (name.equals(EffectiveSettings.ACTIVE_SETTING)) {
        String setting = event.getString("name");
        String value = event.getString("value");
        if (setting != null && value != null) {
          inForce.onActiveSetting(event.getLong("id"), setting, start, value);
        }
      } else if (name.equals(JfrSources.CPU_TIME_SAMPLES_LOST)) {
        joiner.onSamplesLost(losing, event.getLong("lostSamples"));
      } else {
        RecordedMethod method = event.getValue("method");
        methodTiming.onEvent(joiner.stacks(), constants.method(method), event.getLong("invocations"),
            event.getDuration("average").toNanos(), epochNanos(event));
      }
    } catch (RuntimeException e) {
      failed++;
      failures.log(Level.WARNING, "Spanflight skipped a JFR event it could not handle (" + failed + " so far)", e);
    }
  }

  private static long durationTicks(RecordedEvent event) {
    return event.hasField("duration") ? event.getLong("duration") : 0;
  }

  private static long epochNanos(RecordedEvent event) {
    java.time.Instant start = event.getStartTime();
    return start.getEpochSecond() * 1_000_000_000L + start.getNano();
  }

  private void sample(SourceFields fields, RecordedEvent event, long startTicks) {
    fields.learn(event);
    JfrSource source = fields.source;
    RecordedThread thread = fields.hasThread ? event.getThread(source.threadField) : null;
    long javaThreadId = SampleJoiner.NO_THREAD;
    boolean virtual = false;
    if (thread != null) {
      long id = thread.getJavaThreadId();
      javaThreadId = id > 0 ? id : -1; // JFR writes 0 for a thread without a Java id
      virtual = isVirtual(thread);
    }
    int leaf = source.leafMethodField == null ? -1
        : fields.hasLeaf ? constants.method(event.getValue(source.leafMethodField)) : -1;
    long durationNanos = fields.hasDuration ? event.getDuration().toNanos() : -1;
    long value = fields.value(event, durationNanos);
    if (value < 0) { // the field is missing (another JDK's event) or holds no value: no weight to give
      joiner.dropWithoutWeight();
      return;
    }
    joiner.onEvent(source, javaThreadId, virtual, constants.stack(event.getStackTrace()), leaf, startTicks,
        epochNanos(event), durationNanos, value, fields.detail(event));
  }

  /**
   * {@code RecordedThread.isVirtual()} exists from JDK 21 on; this class is compiled for 17.
   * Whether threads have the field is the same for every event of this JVM: looked up once.
   */
  private boolean isVirtual(RecordedThread thread) {
    if (threadsHaveVirtual == null) {
      threadsHaveVirtual = thread.hasField("virtual");
    }
    return threadsHaveVirtual && thread.getBoolean("virtual");
  }

  /** Which of the fields a source asks for its event type has, looked up at its first event. */
  private static final class SourceFields {
    final JfrSource source;
    boolean known;
    boolean hasThread;
    boolean hasDuration;
    boolean hasLeaf;
    boolean hasDetail;
    boolean hasPort;
    /** The weight field, or null when the source weighs 1 or its duration. */
    String valueField;
    boolean valueIsTimespan;

    SourceFields(JfrSource source) {
      this.source = source;
    }

    void learn(RecordedEvent event) {
      if (known) {
        return;
      }
      known = true;
      hasThread = event.hasField(source.threadField);
      hasDuration = event.hasField(JfrSources.DURATION);
      hasLeaf = source.leafMethodField != null && event.hasField(source.leafMethodField);
      hasDetail = !source.detailField.isEmpty() && event.hasField(source.detailField);
      hasPort = !source.portField.isEmpty() && event.hasField(source.portField);
      if (source.valueField != null && !JfrSources.DURATION.equals(source.valueField)) {
        for (ValueDescriptor field : event.getFields()) {
          if (field.getName().equals(source.valueField)) {
            valueField = source.valueField;
            valueIsTimespan = field.getAnnotation(Timespan.class) != null;
          }
        }
      }
    }

    /** What a socket or file event waited on ({@code address:port}, a path), or null. */
    String detail(RecordedEvent event) {
      String detail = hasDetail ? event.getString(source.detailField) : null;
      return detail == null || !hasPort ? detail : detail + ":" + event.getLong(source.portField);
    }

    /** The event's weight: 1, its duration, or its value field (-1 when missing). */
    long value(RecordedEvent event, long durationNanos) {
      if (source.valueField == null) {
        return 1;
      }
      if (JfrSources.DURATION.equals(source.valueField)) {
        return durationNanos;
      }
      if (valueField == null) {
        return -1;
      }
      return valueIsTimespan ? event.getDuration(valueField).toNanos() : event.getLong(valueField);
    }
  }
}
