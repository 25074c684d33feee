package io.spanflight.demo.service;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * {@code /report}: blocking I/O. Reads the ledger files from disk, then asks the slow {@link
 * WarehouseFeed} for a snapshot over a local socket and waits for its answer.
 */
final class ReportGenerator {
  static final int LEDGER_FILES = 8;
  static final int LEDGER_LINES = 2_000;

  private final Path ledgerDir;
  private final int warehousePort;

  private ReportGenerator(Path ledgerDir, int warehousePort) {
    this.ledgerDir = ledgerDir;
    this.warehousePort = warehousePort;
  }

  /** Writes the ledger files the reports read. */
  static ReportGenerator create(Path ledgerDir, int warehousePort) throws IOException {
    for (int f = 0; f < LEDGER_FILES; f++) {
      List<String> lines = new ArrayList<>();
      for (int i = 0; i < LEDGER_LINES; i++) {
        lines.add(String.format(Locale.ROOT, "%d;%d;%.2f", f, i, (i * 37 % 1000) / 10.0));
      }
      Files.write(ledgerDir.resolve("ledger-" + f + ".csv"), lines);
    }
    return new ReportGenerator(ledgerDir, warehousePort);
  }

  String generate() throws IOException {
    double ledgerTotal = readLedgerFiles();
    String snapshot = fetchWarehouseSnapshot("all");
    return String.format(Locale.ROOT, "report: ledger %.2f, warehouse %s%n", ledgerTotal, snapshot);
  }

  /** Reads and sums every ledger file (file I/O, mostly from the page cache). */
  double readLedgerFiles() throws IOException {
    double total = 0;
    for (int f = 0; f < LEDGER_FILES; f++) {
      for (String line : Files.readAllLines(ledgerDir.resolve("ledger-" + f + ".csv"))) {
        total += Double.parseDouble(line.substring(line.lastIndexOf(';') + 1));
      }
    }
    return total;
  }

  /** Where every /report request waits: a blocking read from the slow warehouse feed. */
  String fetchWarehouseSnapshot(String scope) throws IOException {
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), warehousePort);
        BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII))) {
      OutputStream out = socket.getOutputStream();
      out.write((scope + "\n").getBytes(StandardCharsets.US_ASCII));
      out.flush();
      String answer = in.readLine();
      if (answer == null) {
        throw new IOException("the warehouse feed closed the connection without answering");
      }
      return answer;
    }
  }

  /** Removes the ledger files (at shutdown). */
  void deleteLedger() {
    try (Stream<Path> files = Files.list(ledgerDir)) {
      for (Path file : files.toList()) {
        Files.deleteIfExists(file);
      }
      Files.deleteIfExists(ledgerDir);
    } catch (IOException e) {
      // best effort at shutdown: a temporary directory left behind
    }
  }
}
