package io.spanflight.smoke.app.propagation;

import io.opentelemetry.api.trace.Span;
import io.spanflight.smoke.vthreads.CarrierRecords;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * "No leaks": after every task a pool thread ran (and so after every scope the agent opened for
 * it closed), the thread must carry no context, neither in OpenTelemetry ({@code Span.current()})
 * nor in its OTEP-4947 record, which Spanflight writes in the same native call as the timeline
 * entry. The record is read as an external profiler would ({@link CarrierRecords}), when the test
 * gave the reader and Spanflight's native library is loaded.
 */
public final class LeakWatch {
  private static final AtomicLong checked = new AtomicLong();
  private static final AtomicLong recordsRead = new AtomicLong();
  private static final AtomicLong leaks = new AtomicLong();
  private static final ConcurrentLinkedQueue<String> examples = new ConcurrentLinkedQueue<>();
  private static volatile Optional<CarrierRecords> records;

  private LeakWatch() {}

  /** Called on the pool thread right after each task. */
  static void afterTask() {
    boolean spanLeft = Span.current().getSpanContext().isValid();
    boolean recordLeft = false;
    Optional<CarrierRecords> reader = reader();
    if (reader.isPresent()) {
      long address = reader.get().ownRecordAddress();
      recordLeft = address != 0 && reader.get().headerAt(address).valid();
      recordsRead.incrementAndGet();
    }
    checked.incrementAndGet();
    if (spanLeft || recordLeft) {
      leaks.incrementAndGet();
      if (examples.size() < 5) {
        examples.add(Thread.currentThread().getName() + (spanLeft ? " span" : "") + (recordLeft ? " record" : ""));
      }
    }
  }

  /** One line: {@code checked=N records=R leaks=L [examples]}. */
  public static String report() {
    return "checked=" + checked.get() + " records=" + recordsRead.get() + " leaks=" + leaks.get() + " " + examples;
  }

  private static Optional<CarrierRecords> reader() {
    Optional<CarrierRecords> r = records;
    if (r == null) {
      synchronized (LeakWatch.class) {
        if (records == null) {
          records = CarrierRecords.open();
        }
        r = records;
      }
    }
    return r;
  }
}
