package io.spanflight.internal;

import io.spanflight.internal.report.ReportCommand;
import java.util.Arrays;

/**
 * The command line of {@code spanflight.jar} ({@code java -jar spanflight.jar <command>}); as an
 * agent extension the jar is loaded by the OpenTelemetry javaagent, this is only for tools.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class SpanflightCli {
  private SpanflightCli() {}

  public static void main(String[] args) {
    if (args.length > 0 && args[0].equals("report")) {
      System.exit(ReportCommand.run(Arrays.copyOfRange(args, 1, args.length), System.out, System.err));
    }
    System.err.println("spanflight.jar is an OpenTelemetry javaagent extension:"
        + " -javaagent:opentelemetry-javaagent.jar -Dotel.javaagent.extensions=spanflight.jar");
    System.err.println("commands:");
    System.err.println("  report <file or directory>... [--out <file.html>] [--max-files N] [--max-file-mb N]   HTML report of the profiles the file exporter wrote");
    System.exit(args.length == 0 ? 0 : 2);
  }
}
