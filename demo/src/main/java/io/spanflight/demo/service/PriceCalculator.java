package io.spanflight.demo.service;

/**
 * {@code /checkout}: CPU-heavy. Prices a basket item by item: a base price, a volume discount
 * found by bisection, and tax compounded day by day over a billing period, all in doubles.
 */
final class PriceCalculator {
  static final int BILLING_DAYS = 2_000;
  static final int DISCOUNT_STEPS = 60;

  private PriceCalculator() {}

  static String checkout(int items) {
    double total = computePrices(items, items * 31L);
    return String.format(java.util.Locale.ROOT, "checkout: %d items, total %.2f%n", items, total);
  }

  /** The basket's total: the CPU of every /checkout request is spent here. */
  static double computePrices(int items, long basketSeed) {
    double total = 0;
    for (int i = 0; i < items; i++) {
      double base = 5 + (mix(basketSeed + i) & 0xFFFF) / 100.0;
      total += applyTaxes(applyVolumeDiscount(base, 1 + i % 12));
    }
    return total;
  }

  /** Finds, by bisection, the discount rate that makes the line total fall under a tier cap. */
  static double applyVolumeDiscount(double unitPrice, int quantity) {
    double cap = unitPrice * quantity * 0.93;
    double low = 0;
    double high = 0.5;
    for (int step = 0; step < DISCOUNT_STEPS; step++) {
      double mid = (low + high) / 2;
      double line = unitPrice * quantity * Math.pow(1 - mid, 1.0 + quantity / 100.0);
      if (line > cap) {
        low = mid;
      } else {
        high = mid;
      }
    }
    return unitPrice * quantity * (1 - high);
  }

  /** Compounds a daily tax accrual over the billing period. */
  static double applyTaxes(double amount) {
    double accrued = amount;
    for (int day = 0; day < BILLING_DAYS; day++) {
      accrued += accrued * 0.0002 / (1 + Math.sqrt(day + 1.0) * 1e-3);
    }
    return accrued;
  }

  private static long mix(long x) {
    x ^= x >>> 33;
    x *= 0xff51afd7ed558ccdL;
    x ^= x >>> 33;
    return x;
  }
}
