package io.spanflight.internal.report;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds and reads the exported files of a directory: every regular {@code *.binpb} file (hidden
 * files, such as the exporter's temporary ones, are ignored), in name order, which for the file
 * exporter is time order. A file that cannot be read or decoded is named on stderr and skipped.
 * With many files a progress line is printed on stderr.
 *
 * <p>Not API: internal to Spanflight.
 */
final class ReportInputs {
  static final String SUFFIX = ".binpb";
  /** From this many files on, reading prints progress. */
  static final int MANY_FILES = 50;

  /** How many files were read and how many skipped. */
  static final class Outcome {
    final int read;
    final int skipped;

    Outcome(int read, int skipped) {
      this.read = read;
      this.skipped = skipped;
    }
  }

  private ReportInputs() {}

  /** The {@code .binpb} files of {@code directory}, sorted by name. */
  static List<Path> list(Path directory) throws IOException {
    if (!Files.exists(directory)) {
      throw new NoSuchFileException(directory.toAbsolutePath().toString(), null, "no such directory");
    }
    if (!Files.isDirectory(directory)) {
      throw new IOException(directory.toAbsolutePath() + " is not a directory");
    }
    List<Path> files = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory, "*" + SUFFIX)) {
      for (Path entry : entries) {
        if (!entry.getFileName().toString().startsWith(".") && Files.isRegularFile(entry)) {
          files.add(entry);
        }
      }
    }
    files.sort(null);
    return files;
  }

  /** Decodes each file into {@code model}; problems and progress go to {@code err}. */
  static Outcome read(List<Path> files, ReportModel model, PrintStream err) {
    int read = 0;
    int skipped = 0;
    boolean progress = files.size() >= MANY_FILES;
    int step = Math.max(1, files.size() / 10);
    for (int i = 0; i < files.size(); i++) {
      Path file = files.get(i);
      try {
        model.add(RequestDecoder.decode(Files.readAllBytes(file)));
        read++;
      } catch (MalformedProfileException e) {
        err.println("spanflight report: skipping " + file + ": not an OTLP profiles request (" + e.getMessage() + ")");
        skipped++;
      } catch (IOException e) {
        err.println("spanflight report: skipping " + file + ": cannot read it (" + e + ")");
        skipped++;
      }
      if (progress && ((i + 1) % step == 0 || i + 1 == files.size())) {
        err.println("spanflight report: read " + (i + 1) + " of " + files.size() + " files, "
            + model.samples() + " samples");
      }
    }
    return new Outcome(read, skipped);
  }
}
