package io.spanflight.smoke.vthreads;

import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What one request's virtual threads do: burn CPU in a method whose name says which endpoint it
 * belongs to, park, resume (often on another carrier), burn again; after each resume, read the
 * carrier's OTEP-4947 record, which must show this request's span.
 */
final class VirtualThreadWork {
  /** What the records read inside one request's virtual threads showed. */
  static final class Observed {
    final Set<String> spans = ConcurrentHashMap.newKeySet();
    final Set<Long> carriers = ConcurrentHashMap.newKeySet();
    final AtomicInteger reads = new AtomicInteger();
    final AtomicInteger invalid = new AtomicInteger();
    final AtomicInteger moved = new AtomicInteger();

    /** Reads the record of the carrier the calling virtual thread runs on. */
    long readCarrier(CarrierRecords records, long previousCarrier) {
      long carrier = records.ownRecordAddress();
      CarrierRecords.Header header = records.headerAt(carrier);
      reads.incrementAndGet();
      if (header.valid()) {
        spans.add(header.spanId());
      } else {
        invalid.incrementAndGet();
      }
      carriers.add(carrier);
      if (previousCarrier != 0 && previousCarrier != carrier) {
        moved.incrementAndGet();
      }
      return carrier;
    }

    String describe() {
      return "reads=" + reads + " invalid=" + invalid + " spans=" + String.join(",", spans)
          + " carriers=" + carriers.size() + " moved=" + moved;
    }
  }

  private VirtualThreadWork() {}

  /** {@code slices} times: burn {@code sliceMillis} in the A method, then park for 1 ms. */
  static long sliceForRequestA(int slices, long sliceMillis, Optional<CarrierRecords> records,
      Observed observed) throws InterruptedException {
    long acc = 0;
    long carrier = 0;
    for (int i = 0; i < slices; i++) {
      acc += burnOnVirtualThreadForA(sliceMillis);
      Thread.sleep(1); // parks: the virtual thread unmounts and resumes, maybe elsewhere
      if (records.isPresent()) {
        carrier = observed.readCarrier(records.get(), carrier);
      }
    }
    return acc;
  }

  /** As {@link #sliceForRequestA}, burning in the B method. */
  static long sliceForRequestB(int slices, long sliceMillis, Optional<CarrierRecords> records,
      Observed observed) throws InterruptedException {
    long acc = 0;
    long carrier = 0;
    for (int i = 0; i < slices; i++) {
      acc += burnOnVirtualThreadForB(sliceMillis);
      Thread.sleep(1);
      if (records.isPresent()) {
        carrier = observed.readCarrier(records.get(), carrier);
      }
    }
    return acc;
  }

  static long burnOnVirtualThreadForA(long millis) {
    long deadline = System.nanoTime() + millis * 1_000_000L;
    long acc = millis + 1;
    do {
      for (int i = 0; i < 2_000; i++) {
        acc = acc * 6364136223846793005L + 1442695040888963407L;
      }
    } while (System.nanoTime() - deadline < 0);
    return acc;
  }

  /** CPU for /vt/parked, in a method of its own so that its samples never count for A or B. */
  static long burnBeforeParking(long millis) {
    long deadline = System.nanoTime() + millis * 1_000_000L;
    long acc = millis;
    while (System.nanoTime() - deadline < 0) {
      acc = acc * 31 + 7;
    }
    return acc;
  }

  static long burnOnVirtualThreadForB(long millis) {
    long deadline = System.nanoTime() + millis * 1_000_000L;
    long hash = 0xcbf29ce484222325L;
    long round = 0;
    do {
      for (int i = 0; i < 2_000; i++) {
        hash ^= round++ & 0xff;
        hash *= 0x100000001b3L;
      }
    } while (System.nanoTime() - deadline < 0);
    return hash;
  }
}
