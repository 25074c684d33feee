package io.spanflight.internal.jfr.chunk;

import io.spanflight.internal.jfr.chunk.ChunkMetadata.Field;
import java.util.Arrays;
import java.util.List;

/**
 * Reads the events of a chunk one at a time and hands the subscribed ones to {@link
 * ChunkReader.Events}: an event of a subscribed type has the fields its {@linkplain EventPlans
 * plan} asks for copied into one reused {@code long[]} (durations in nanoseconds), every other
 * field and every other event passed over by its size. Events are handed out in the order read,
 * or, once {@link #inTimeOrder}, held back by {@link EventOrder} and handed out by end time at the
 * end of each read.
 *
 * <p>Not API: internal to Spanflight.
 */
final class EventDispatch {
  private final EventPlans plans;
  private final ValueDecoder decoder;
  private final TickConversion ticks;
  private final ChunkReader.Events events;
  private final long[] values;
  /** Null: events are handed out in the order read. */
  private EventOrder order;
  /** The latest end (start plus duration, in ticks) of a subscribed event read so far. */
  private long newestEndTicks = Long.MIN_VALUE;

  EventDispatch(EventPlans plans, ValueDecoder decoder, TickConversion ticks, ChunkReader.Events events) {
    this.plans = plans;
    this.decoder = decoder;
    this.ticks = ticks;
    this.events = events;
    this.values = new long[plans.widest()];
  }

  /** From now on, holds the events of each read back and hands them out by end time. */
  void inTimeOrder() {
    order = new EventOrder(values.length);
  }

  /** The latest end time, in ticks, of the subscribed events read so far, or Long.MIN_VALUE. */
  long newestEndTicks() {
    return newestEndTicks;
  }

  /** Hands out the events held back by end time, if any (what was read before a bad byte too). */
  void handOutHeld() {
    if (order != null) {
      order.handOut(events);
    }
  }

  /** Reads the event at {@code input}'s position, which must end by {@code end}, and moves past it. */
  void readEvent(ChunkInput input, long end) throws ChunkFormatException {
    long at = input.position();
    long size = input.readVarLong();
    if (size <= 0 || size > end - at) {
      throw new ChunkFormatException("event size " + size + " at " + at + " passes the chunk's end " + end);
    }
    long typeId = input.readVarLong();
    int[] plan = plans.planOf(typeId);
    if (plan != null) {
      Arrays.fill(values, -1);
      long start = 0;
      long duration = 0;
      List<Field> fields = decoder.metadata().type(typeId).fields();
      for (int i = 0; i < fields.size(); i++) {
        int slot = plan[EventPlans.PLAN_SLOTS + i];
        if (slot >= 0 || i == plan[1] || i == plan[2]) {
          long value = decoder.readField(input, fields.get(i), 0);
          start = i == plan[1] ? value : start;
          duration = i == plan[2] ? value : duration;
          if (slot >= 0) {
            values[slot] = ticks.inNanos(value, fields.get(i));
          }
        } else {
          decoder.skipField(input, fields.get(i), 0);
        }
      }
      if (input.position() > at + size) {
        throw new ChunkFormatException("event at " + at + " holds more than the " + size + " bytes it says");
      }
      newestEndTicks = Math.max(newestEndTicks, start + Math.max(0, duration));
      if (order == null) {
        events.event(plan[0], values);
      } else {
        order.add(start + Math.max(0, duration), plan[0], values, events);
      }
    }
    input.position(at + size);
  }
}
