package io.spanflight.demo.run;

import io.spanflight.demo.load.LoadGenerator;
import java.util.Locale;

/** Prints one line per progress report: elapsed time, requests, rate since the last line, errors. */
final class ProgressLine {
  private long lastOk;
  private long lastNanos;

  void print(LoadGenerator.Progress p) {
    double seconds = (p.elapsedNanos() - lastNanos) / 1e9;
    double rate = seconds <= 0 ? 0 : (p.ok() - lastOk) / seconds;
    System.out.printf(Locale.ROOT, "  %3d s  %6d requests  %6.1f req/s  errors %d%n",
        Math.round(p.elapsedNanos() / 1e9), p.ok(), rate, p.failed());
    System.out.flush();
    lastOk = p.ok();
    lastNanos = p.elapsedNanos();
  }
}
