package io.spanflight.internal.jfr.join;

import io.spanflight.internal.ScriptedBridge;
import io.spanflight.internal.correlate.Timelines;
import io.spanflight.internal.filter.SampleFilters;
import io.spanflight.internal.jfr.clock.JfrClock;
import io.spanflight.internal.profile.ProfileCollector;
import io.spanflight.internal.registry.ContextRegistry;
import io.spanflight.internal.threads.OwnThreads;
import java.util.function.LongPredicate;

/** For tests of reading: a joiner with no filter and a fresh clock, over a bridge no span ever switches. */
public final class PlainJoiners {
  private PlainJoiners() {}

  /** A joiner that adds what it joins to {@code collector}, as the run builds it. */
  public static SampleJoiner into(ProfileCollector collector) {
    return into(collector, OwnThreads::contains);
  }

  /** The same, with {@code ownThread} telling Spanflight's own threads. */
  public static SampleJoiner into(ProfileCollector collector, LongPredicate ownThread) {
    ScriptedBridge bridge = new ScriptedBridge();
    return new SampleJoiner(new JfrClock(), new Timelines(bridge), new ContextRegistry(bridge), collector,
        SampleFilters.NONE, ownThread);
  }
}
