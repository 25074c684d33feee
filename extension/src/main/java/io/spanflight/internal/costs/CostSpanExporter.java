package io.spanflight.internal.costs;

import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.logging.Logger;

/**
 * Wraps the agent's span exporter: each finished span is held ({@link SpanHold}) until
 * Spanflight's JFR stream has delivered the events up to its end, then goes to the wrapped exporter
 * with its {@code spanflight.cost.*} attributes ({@link SpanCostAnnotator}).
 *
 * <pre>
 *  SDK span processor ─export()─► SpanHold ─ tick() every 100 ms: watermark past end, or deadline ─►
 *      SpanCostAnnotator (SpanCostTable.take, subtree, route metrics, inferred children) ─► wrapped exporter
 *  hold full / profiling off ─► annotated with the status only, sent at once
 *  flush() / shutdown() ─► everything held goes out now (status ok or flushed), then the wrapped
 *      exporter's flush / shutdown
 * </pre>
 *
 * <p>{@link #export} never waits for the stream: it returns at once, so the SDK's processor never
 * blocks. No span is ever dropped here. The ticking is done by {@link CostTicker}; tests call
 * {@link #tick} themselves with their own clock and watermark.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class CostSpanExporter implements SpanExporter {
  private static final Logger logger = Logger.getLogger("io.spanflight");
  /** A span waiting this long without the stream moving asks the stream for an event. */
  static final long IDLE_STREAM_NANOS = 1_500_000_000L;

  private final SpanExporter delegate;
  private final SpanCostLink link;
  private final SpanHold hold;
  private final SpanCostAnnotator annotator;
  private final LongSupplier nanoClock;
  private final LongSupplier epochClock;
  private long lastWatermarkRequest = Long.MIN_VALUE; // guarded by this
  private boolean shutDown; // guarded by this

  CostSpanExporter(
      SpanExporter delegate,
      SpanCostLink link,
      SpanHold hold,
      SpanCostAnnotator annotator,
      LongSupplier nanoClock,
      LongSupplier epochClock) {
    this.delegate = delegate;
    this.link = link;
    this.hold = hold;
    this.annotator = annotator;
    this.nanoClock = nanoClock;
    this.epochClock = epochClock;
  }

  @Override
  public CompletableResultCode export(Collection<SpanData> spans) {
    List<SpanData> ordered = new ArrayList<>(spans);
    ordered.sort(Comparator.comparingLong(SpanData::getEndEpochNanos)); // children first
    long now = nanoClock.getAsLong();
    long toNanoTime = now - epochClock.getAsLong(); // epoch nanos + this = nanoTime
    List<SpanData> immediate = new ArrayList<>();
    synchronized (this) {
      if (shutDown) {
        return delegate.export(spans); // nothing is held after shutdown
      }
      boolean active = link.active();
      for (SpanData span : ordered) {
        long start = span.getStartEpochNanos() + toNanoTime;
        long end = span.getEndEpochNanos() + toNanoTime;
        if (!active || !hold.offer(span, start, end, now)) {
          HeldSpan passing = new HeldSpan(span, start, end, now);
          annotator.annotate(passing, active ? CostStatus.OVERFLOW : CostStatus.OFF, now, immediate);
        }
      }
    }
    return immediate.isEmpty() ? CompletableResultCode.ofSuccess() : delegate.export(immediate);
  }

  /**
   * Sends the held spans the stream has caught up with, and those past their deadline; asks the
   * stream for an event when it has delivered nothing for a while (an idle application).
   */
  public CompletableResultCode tick() {
    List<SpanData> out = new ArrayList<>();
    synchronized (this) {
      long now = nanoClock.getAsLong();
      long watermark = link.watermarkNanos();
      List<HeldSpan> released = new ArrayList<>();
      hold.release(watermark, now, released);
      String late = link.active() ? CostStatus.TIMEOUT : CostStatus.OFF;
      for (HeldSpan held : released) {
        annotator.annotate(held, SpanHold.joined(held, watermark) ? CostStatus.OK : late, now, out);
      }
      if (hold.oldestEndNanos() > watermark
          && now - hold.oldestArrivalNanos() >= IDLE_STREAM_NANOS
          && (lastWatermarkRequest == Long.MIN_VALUE || now - lastWatermarkRequest >= IDLE_STREAM_NANOS)) {
        lastWatermarkRequest = now;
        link.requestWatermark();
      }
    }
    return out.isEmpty() ? CompletableResultCode.ofSuccess() : delegate.export(out);
  }

  /** Sends every held span now: with costs where the stream has passed its end, else flushed. */
  private CompletableResultCode releaseAll() {
    List<SpanData> out = new ArrayList<>();
    synchronized (this) {
      long now = nanoClock.getAsLong();
      long watermark = link.watermarkNanos();
      List<HeldSpan> released = new ArrayList<>();
      hold.releaseAll(released);
      for (HeldSpan held : released) {
        annotator.annotate(held, SpanHold.joined(held, watermark) ? CostStatus.OK : CostStatus.FLUSHED, now, out);
      }
    }
    return out.isEmpty() ? CompletableResultCode.ofSuccess() : delegate.export(out);
  }

  @Override
  public CompletableResultCode flush() {
    CompletableResultCode sent = releaseAll();
    CompletableResultCode result = new CompletableResultCode();
    sent.whenComplete(() -> {
      CompletableResultCode flushed = delegate.flush();
      flushed.whenComplete(() -> complete(result, sent.isSuccess() && flushed.isSuccess()));
    });
    return result;
  }

  /**
   * Sends what is held at once (no waiting for the stream), then shuts the wrapped exporter down
   * once that export is done; the SDK bounds the whole by its own shutdown timeout.
   */
  @Override
  public CompletableResultCode shutdown() {
    synchronized (this) {
      shutDown = true;
    }
    CompletableResultCode sent = releaseAll();
    synchronized (this) {
      logger.info("Spanflight span costs: " + annotator.summary());
    }
    CompletableResultCode result = new CompletableResultCode();
    sent.whenComplete(() -> {
      CompletableResultCode closed = delegate.shutdown();
      closed.whenComplete(() -> complete(result, sent.isSuccess() && closed.isSuccess()));
    });
    return result;
  }

  private static void complete(CompletableResultCode result, boolean success) {
    if (success) {
      result.succeed();
    } else {
      result.fail();
    }
  }

  /** Spans held now. */
  public int held() {
    return hold.size();
  }

  synchronized boolean isShutDown() {
    return shutDown;
  }

  @Override
  public String toString() {
    return "CostSpanExporter{" + delegate + "}";
  }
}
