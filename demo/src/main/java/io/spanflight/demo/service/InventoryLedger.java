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
  private long lastChecksum;

  InventoryLedger() {
    java.util.Arrays.fill(stock, 1_000_000);
  }

  String reserve(int sku) throws InterruptedException {
    int left = reserveStock(sku % SKUS);
    return String.format(Locale.ROOT, "inventory: sku %d reserved, %d left%n", sku, left);
  }

  /** The last recount's checksum (read by tests; keeps the recount from being optimised away). */
  long lastChecksum() {
    synchronized (monitor) {
      return lastChecksum;
    }
  }

  /** The monitor every /inventory request waits for. */
  int reserveStock(int sku) throws InterruptedException {
    synchronized (monitor) {
      stock[sku]--;
      reservations++;
      lastChecksum = recount();
      Thread.sleep(WRITE_THROUGH_MILLIS); // the write-through, monitor held
      return stock[sku];
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
