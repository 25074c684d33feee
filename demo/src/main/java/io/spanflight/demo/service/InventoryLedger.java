package io.spanflight.demo.service;

import java.util.Locale;

/**
 * {@code /inventory}: lock contention. Every reservation goes through one shared monitor, and the
 * ledger is written through to its (simulated) store while the monitor is held, as in many
 * real services; concurrent requests therefore queue on it.
 */
final class InventoryLedger {
  static final int SKUS = 1_000;
  /** How long writing the reservation through to the store takes, monitor held. */
  static final long WRITE_THROUGH_MILLIS = 12;

  private final Object monitor = new Object();
  private final int[] stock = new int[SKUS];
  private long reservations;

  InventoryLedger() {
    java.util.Arrays.fill(stock, 1_000_000);
  }

  /** What a reservation leaves: the SKU's stock and the ledger's checksum after it. */
  record Reservation(int left, long checksum) {}

  String reserve(int sku) throws InterruptedException {
    Reservation r = reserveStock(sku % SKUS);
    return String.format(Locale.ROOT, "inventory: sku %d reserved, %d left (ledger checksum %x)%n", sku, r.left(), r.checksum());
  }

  /** The monitor every /inventory request waits for. */
  Reservation reserveStock(int sku) throws InterruptedException {
    synchronized (monitor) {
      stock[sku]--;
      reservations++;
      long checksum = recount();
      Thread.sleep(WRITE_THROUGH_MILLIS); // the write-through, monitor held
      return new Reservation(stock[sku], checksum);
    }
  }

  /** A consistency recount over the whole ledger (a little CPU inside the critical section). */
  private long recount() {
    long sum = reservations;
    for (int round = 0; round < 50; round++) {
      for (int s : stock) {
        sum += s ^ round;
      }
    }
    return sum;
  }
}
