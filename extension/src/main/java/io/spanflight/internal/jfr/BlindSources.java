package io.spanflight.internal.jfr;

import io.spanflight.internal.config.SourceSettings;
import io.spanflight.internal.jfr.join.JoinSource;
import io.spanflight.internal.jfr.join.SampleJoiner;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Function;
import java.util.function.IntToLongFunction;
import java.util.function.Supplier;
import java.util.logging.Logger;

/**
 * Says when a source is blind: the CPU, CPU-time or allocation source is on, yet delivered no
 * event for {@value #WINDOW} export intervals while the application's threads used CPU (at least
 * {@value #CPU_PERIODS} sampling periods of it) or allocated (at least {@value #ALLOCATED_MB} MB).
 * Then one warning line names the source, its event and the likely cause, and the source's blind
 * count ({@link #blindings}) goes up; when its events flow again, one info line says so. The other
 * sources wait on the application (a lock, a park), so their silence proves nothing. A source that
 * sees, but loses part of its samples, is said by {@link SampleLosses}.
 *
 * <p>Runs on the export thread, once per interval ({@link #intervalEnded}); the counts are read by
 * the self-metrics and the control MBean from other threads.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class BlindSources {
  /** The sources watched; {@link JfrSource#watched} is the index in this list. */
  static final List<String> WATCHED = JoinSource.WATCHED;
  static final int WINDOW = 3;
  static final long CPU_PERIODS = 50;
  static final long ALLOCATED_MB = 64;
  private static final long DEFAULT_PERIOD_NANOS = 20_000_000L;
  private static final Logger logger = Logger.getLogger("io.spanflight");

  private final IntToLongFunction delivered;
  private final Supplier<long[]> work;
  /** Per watched source: events and work in each of the last intervals (a ring), and how many are filled. */
  private final long[][] events = new long[WATCHED.size()][WINDOW];
  private final long[][] worked = new long[WATCHED.size()][WINDOW];
  private final int[] filled = new int[WATCHED.size()];
  private final long[] eventsBefore = new long[WATCHED.size()];
  private final boolean[] blind = new boolean[WATCHED.size()];
  private final AtomicLongArray blindings = new AtomicLongArray(WATCHED.size());
  private final SampleLosses losses;
  private int slot;

  public BlindSources(SampleJoiner joiner) {
    this(joiner.counts()::watchedEvents, new ThreadWork()::sinceLast, joiner.counts()::lostSamples);
  }

  /**
   * @param delivered events delivered since startup, by index in {@link #WATCHED}
   * @param work CPU nanoseconds and allocated bytes of the application's threads since the last call
   */
  BlindSources(IntToLongFunction delivered, Supplier<long[]> work) {
    this(delivered, work, i -> 0);
  }

  /** @param lost samples JFR lost since startup, by index in {@link #WATCHED} (see {@link SampleLosses}) */
  BlindSources(IntToLongFunction delivered, Supplier<long[]> work, IntToLongFunction lost) {
    this.delivered = delivered;
    this.work = work;
    this.losses = new SampleLosses(lost, delivered);
  }

  /** At the end of an export interval of a run whose stream is {@code stream}. */
  public void intervalEnded(JfrSampleStream stream) {
    intervalEnded(stream.recordedSources(), stream::blindCause);
  }

  /**
   * @param sources the run's recorded sources
   * @param cause the likely cause of silence, by event name
   */
  synchronized void intervalEnded(List<JfrSource> sources, Function<String, String> cause) {
    losses.intervalEnded(sources);
    long[] done = work.get();
    slot = (slot + 1) % WINDOW;
    for (JfrSource source : sources) {
      int i = source.watched;
      if (i < 0) {
        continue;
      }
      long total = delivered.applyAsLong(i);
      long fresh = total - eventsBefore[i];
      eventsBefore[i] = total;
      boolean allocation = WATCHED.get(i).equals(SourceSettings.ALLOCATION);
      events[i][slot] = fresh;
      worked[i][slot] = allocation ? done[1] : done[0];
      filled[i] = Math.min(WINDOW, filled[i] + 1);
      if (blind[i] && fresh > 0) {
        blind[i] = false;
        logger.info("Spanflight's " + source.sourceName + " source sees again: " + source.eventName + " events arrive");
      } else if (!blind[i] && filled[i] == WINDOW && sum(events[i]) == 0 && sum(worked[i]) >= expected(source, allocation)) {
        blind[i] = true;
        blindings.incrementAndGet(i);
        logger.warning("Spanflight's " + source.sourceName + " source is blind: no " + source.eventName + " event for "
            + WINDOW + " export intervals while the application's threads " + (allocation
                ? "allocated " + (sum(worked[i]) >> 20) + " MB"
                : "used " + sum(worked[i]) / 1_000_000 + " ms of CPU")
            + "; likely cause: " + cause.apply(source.eventName) + ". Its profiles stay empty until it sees again.");
      }
    }
  }

  /** A new run: the windows start empty (what was blind stays so until its events arrive). */
  public synchronized void runStarted() {
    for (int i = 0; i < WATCHED.size(); i++) {
      filled[i] = 0;
      eventsBefore[i] = delivered.applyAsLong(i);
    }
    losses.runStarted();
    work.get();
  }

  /** Samples source {@code name} lost since startup (see {@link SampleLosses}); 0 for a source not watched. */
  public synchronized long lostSamples(String name) {
    return ofWatched(name, losses::lost);
  }

  /** How often source {@code name} went blind since startup; 0 for a source not watched. */
  public long blindings(String name) {
    return ofWatched(name, blindings::get);
  }

  /** {@code count} of source {@code name}'s index in {@link #WATCHED}; 0 for a source not watched. */
  private static long ofWatched(String name, IntToLongFunction count) {
    int i = WATCHED.indexOf(name);
    return i < 0 ? 0 : count.applyAsLong(i);
  }

  /** The sources blind now (no event for three intervals while the application worked), by name. */
  public synchronized java.util.List<String> blindNow() {
    java.util.List<String> names = new java.util.ArrayList<>();
    for (int i = 0; i < WATCHED.size(); i++) {
      if (blind[i]) {
        names.add(WATCHED.get(i));
      }
    }
    return names;
  }

  /** How often any source went blind since startup. */
  public long blindings() {
    long all = 0;
    for (int i = 0; i < WATCHED.size(); i++) {
      all += blindings.get(i);
    }
    return all;
  }

  /** The work over the window below which silence proves nothing. */
  private static long expected(JfrSource source, boolean allocation) {
    if (allocation) {
      return ALLOCATED_MB << 20;
    }
    long period = JfrValues.nanos(source.settingValue);
    return CPU_PERIODS * (period > 0 ? period : DEFAULT_PERIOD_NANOS);
  }

  private static long sum(long[] values) {
    long sum = 0;
    for (long value : values) {
      sum += value;
    }
    return sum;
  }
}
