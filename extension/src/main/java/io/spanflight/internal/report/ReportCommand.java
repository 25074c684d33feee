package io.spanflight.internal.report;

import io.spanflight.internal.report.ReportInputs.Outcome;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Locale;

/**
 * {@code java -jar spanflight.jar report <directory> [--out <file.html>]}: reads every {@code
 * *.binpb} file of a directory (as written by the file exporter), writes the HTML report (default
 * {@code spanflight-report/index.html} in the working directory), and prints where it is and a
 * {@link TerminalSummary}. Files that cannot be read or decoded are named on stderr and skipped.
 *
 * <p>Exit status: 0 when a report was written, 1 when there was nothing to report or it could not
 * be written, 2 for a usage error.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class ReportCommand {
  static final String USAGE = "usage: java -jar spanflight.jar report <directory> [--out <file.html>]";
  static final Path DEFAULT_OUT = Paths.get("spanflight-report", "index.html");

  private ReportCommand() {}

  /** Runs the command with the arguments after {@code report}; returns the exit status. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    Path directory = null;
    Path output = DEFAULT_OUT;
    try {
      for (int i = 0; i < args.length; i++) {
        String arg = args[i];
        if (arg.equals("--out") || arg.equals("-o")) {
          if (i + 1 == args.length) {
            return usage(err, "--out needs a file name");
          }
          output = Paths.get(args[++i]);
        } else if (arg.startsWith("--out=")) {
          output = Paths.get(arg.substring("--out=".length()));
        } else if (arg.equals("--help") || arg.equals("-h")) {
          out.println(USAGE);
          return 0;
        } else if (arg.startsWith("-")) {
          return usage(err, "unknown option " + arg);
        } else if (directory == null) {
          directory = Paths.get(arg);
        } else {
          return usage(err, "one directory only (got " + directory + " and " + arg + ")");
        }
      }
    } catch (InvalidPathException e) {
      return usage(err, "invalid path: " + e.getMessage());
    }
    if (directory == null) {
      return usage(err, "which directory? give the directory the file exporter wrote to");
    }
    return report(directory, output, out, err);
  }

  private static int report(Path directory, Path output, PrintStream out, PrintStream err) {
    long start = System.nanoTime();
    List<Path> files;
    try {
      files = ReportInputs.list(directory);
    } catch (IOException e) {
      err.println("spanflight report: " + e.getMessage());
      return 1;
    }
    if (files.isEmpty()) {
      err.println("spanflight report: no " + ReportInputs.SUFFIX + " files in " + directory.toAbsolutePath()
          + " (the file exporter writes spanflight-*" + ReportInputs.SUFFIX
          + " there when otel.spanflight.file.format includes otlp, the default)");
      return 1;
    }
    ReportModel model = new ReportModel();
    Outcome outcome = ReportInputs.read(files, model, err);
    if (outcome.read == 0) {
      err.println("spanflight report: none of the " + files.size() + " files in "
          + directory.toAbsolutePath() + " could be read; no report written");
      return 1;
    }
    Path html = output.toAbsolutePath().normalize();
    try {
      HtmlReport.write(model, html);
    } catch (IOException | RuntimeException e) {
      err.println("spanflight report: cannot write " + html + ": " + e);
      return 1;
    }
    long millis = (System.nanoTime() - start) / 1_000_000;
    out.println("Report: " + html);
    out.printf(Locale.ROOT, "  %d samples from %d file(s)%s, %d endpoint(s), %d trace(s); %s, generated in %d ms%n",
        model.samples(), outcome.read, outcome.skipped > 0 ? " (" + outcome.skipped + " skipped)" : "",
        model.endpoints().size(), model.traceCount(), size(html), millis);
    if (model.samples() == 0) {
      out.println("  (the files hold no samples)");
    } else {
      TerminalSummary.print(model, out);
    }
    return 0;
  }

  private static String size(Path file) {
    try {
      long bytes = Files.size(file);
      return bytes >= 1 << 20 ? String.format(Locale.ROOT, "%.1f MB", bytes / (double) (1 << 20))
          : String.format(Locale.ROOT, "%.0f KB", bytes / 1024.0);
    } catch (IOException e) {
      return "size unknown";
    }
  }

  private static int usage(PrintStream err, String problem) {
    err.println("spanflight report: " + problem);
    err.println(USAGE);
    return 2;
  }
}
