package io.spanflight.internal.report;

import io.spanflight.internal.report.ReportInputs.Outcome;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code java -jar spanflight.jar report <file or directory>... [--out <file.html>]}: reads the
 * files named and every {@code *.binpb} file of the directories named (as written by the file
 * exporter), writes the HTML report (default {@code spanflight-report/index.html} in the working
 * directory), and prints where it is and a {@link TerminalSummary}. Each input that cannot be
 * read or decoded is one line on stderr naming it and what is wrong, and is skipped; the others
 * still make the report. What is read is bounded ({@link ReportLimits}; {@code --max-files},
 * {@code --max-file-mb}).
 *
 * <p>Exit status: 0 when a report was written from every input, 3 when a report was written but
 * some input was skipped or left out, 1 when there was nothing to report or it could not be
 * written, 2 for a usage error. No stack trace reaches the terminal.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class ReportCommand {
  static final String USAGE = "usage: java -jar spanflight.jar report <file or directory>... [--out <file.html>]"
      + " [--max-files N] [--max-file-mb N]";
  static final Path DEFAULT_OUT = Paths.get("spanflight-report", "index.html");
  static final int PARTIAL = 3;

  private ReportCommand() {}

  /** Runs the command with the arguments after {@code report}; returns the exit status. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    return run(args, ReportLimits.DEFAULT, out, err);
  }

  /** As {@link #run(String[], PrintStream, PrintStream)}, with other default limits (for tests). */
  static int run(String[] args, ReportLimits defaults, PrintStream out, PrintStream err) {
    List<Path> inputs = new ArrayList<>();
    Path output = DEFAULT_OUT;
    int maxFiles = defaults.maxFiles;
    long maxFileBytes = defaults.maxFileBytes;
    try {
      for (int i = 0; i < args.length; i++) {
        String arg = args[i];
        String option = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
        boolean takesValue = option.equals("--out") || option.equals("-o") || option.equals("--max-files")
            || option.equals("--max-file-mb");
        String value = null;
        if (takesValue) {
          if (!option.equals(arg)) {
            value = arg.substring(option.length() + 1);
          } else if (i + 1 < args.length) {
            value = args[++i];
          } else {
            return usage(err, option + " needs a value");
          }
        }
        if (option.equals("--out") || option.equals("-o")) {
          output = Paths.get(value);
        } else if (option.equals("--max-files")) {
          maxFiles = (int) positive(option, value, Integer.MAX_VALUE);
        } else if (option.equals("--max-file-mb")) {
          maxFileBytes = positive(option, value, Integer.MAX_VALUE >> 20) << 20;
        } else if (arg.equals("--help") || arg.equals("-h")) {
          out.println(USAGE);
          return 0;
        } else if (arg.startsWith("-")) {
          return usage(err, "unknown option " + ReportInputs.printable(arg));
        } else {
          inputs.add(Paths.get(arg));
        }
      }
    } catch (InvalidPathException e) {
      return usage(err, "invalid path: " + ReportInputs.printable(e.getMessage()));
    } catch (IllegalArgumentException e) {
      return usage(err, ReportInputs.printable(e.getMessage()));
    }
    if (inputs.isEmpty()) {
      return usage(err, "which files? give the directory the file exporter wrote to, or .binpb files");
    }
    try {
      return report(inputs, output, new ReportLimits(maxFiles, maxFileBytes, defaults.maxCallTreeNodes), out, err);
    } catch (OutOfMemoryError e) {
      err.println("spanflight report: out of memory; give java more heap (-Xmx) or fewer files");
      return 1;
    } catch (RuntimeException | StackOverflowError e) {
      err.println("spanflight report: failed (" + ReportInputs.printable(String.valueOf(e))
          + "); this is a bug in the report, please report it");
      return 1;
    }
  }

  private static long positive(String option, String value, long max) {
    try {
      long n = Long.parseLong(value.trim());
      if (n >= 1 && n <= max) {
        return n;
      }
    } catch (NumberFormatException e) {
      // below
    }
    throw new IllegalArgumentException(option + " needs a whole number from 1 to " + max + ", got " + value);
  }

  private static int report(List<Path> inputs, Path output, ReportLimits limits, PrintStream out, PrintStream err) {
    long start = System.nanoTime();
    ReportInputs.Listing listing = ReportInputs.list(inputs, limits, err);
    List<Path> files = listing.files;
    if (files.isEmpty()) {
      err.println("spanflight report: nothing to read; no report written");
      return 1;
    }
    ReportModel model = new ReportModel();
    Outcome outcome = ReportInputs.read(files, model, limits, err);
    if (outcome.read == 0) {
      err.println("spanflight report: none of the " + files.size() + " files could be read; no report written");
      return 1;
    }
    Path html = output.toAbsolutePath().normalize();
    try {
      HtmlReport.write(model, html);
    } catch (IOException | RuntimeException e) {
      err.println("spanflight report: cannot write " + html + ": " + ReportInputs.printable(String.valueOf(e)));
      return 1;
    }
    long millis = (System.nanoTime() - start) / 1_000_000;
    int skipped = outcome.skipped + listing.problems;
    out.println("Report: " + html);
    out.printf(Locale.ROOT, "  %d samples from %d file(s)%s, %d endpoint(s), %d trace(s); %s, generated in %d ms%n",
        model.samples(), outcome.read, outcome.skipped > 0 ? " (" + outcome.skipped + " skipped)" : "",
        model.endpoints().size(), model.traceCount(), size(html), millis);
    if (model.samples() == 0) {
      out.println("  (the files hold no samples)");
    } else {
      TerminalSummary.print(model, out);
    }
    return skipped > 0 ? PARTIAL : 0;
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
