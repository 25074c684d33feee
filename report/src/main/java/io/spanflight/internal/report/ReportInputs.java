package io.spanflight.internal.report;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Finds and reads the input files: a file named on the command line is read whatever its name; a
 * directory contributes its regular {@code *.binpb} files (hidden files, such as the exporter's
 * temporary ones, are ignored), in name order, which for the file exporter is time order. At most
 * {@link ReportLimits#maxFiles} files are read (the first by name; a directory of a million files
 * is listed once, keeping only that many) and none larger than {@link ReportLimits#maxFileBytes}.
 * Each input that cannot be listed, read or decoded is one line on stderr, naming it and what is
 * wrong, and is skipped. With many files a progress line is printed on stderr.
 *
 * <p>Not API: internal to Spanflight.
 */
final class ReportInputs {
  static final String SUFFIX = ".binpb";
  /** From this many files on, reading prints progress. */
  static final int MANY_FILES = 50;
  private static final String PREFIX = "spanflight report: ";

  /** How many files were read and how many inputs (files, directories) were skipped or cut short. */
  static final class Outcome {
    final int read;
    final int skipped;

    Outcome(int read, int skipped) {
      this.read = read;
      this.skipped = skipped;
    }
  }

  /** The files to read, and how many inputs could not be listed or were cut short. */
  static final class Listing {
    final List<Path> files;
    final int problems;

    Listing(List<Path> files, int problems) {
      this.files = files;
      this.problems = problems;
    }
  }

  private ReportInputs() {}

  /** The files named, and the {@code .binpb} files of the directories named, up to the limit. */
  static Listing list(List<Path> paths, ReportLimits limits, PrintStream err) {
    List<Path> files = new ArrayList<>();
    int problems = 0;
    for (Path path : paths) {
      String problem = add(path, files, limits);
      if (problem != null) {
        err.println(PREFIX + printable(path.toString()) + ": " + problem);
        problems++;
      }
    }
    return new Listing(files, problems);
  }

  /** Adds the files of {@code path}; returns what was wrong, or null. */
  private static String add(Path path, List<Path> files, ReportLimits limits) {
    int room = limits.maxFiles - files.size();
    if (Files.isDirectory(path)) {
      if (room == 0) {
        return "left out: " + limits.maxFiles + " files were read already (--max-files raises the limit)";
      }
      try {
        int found = listDirectory(path, room, files);
        if (found == 0) {
          return "no " + SUFFIX + " files here (the file exporter writes spanflight-*" + SUFFIX
              + " when otel.spanflight.file.format includes otlp, the default)";
        }
        if (found > room) {
          return "holds " + found + " " + SUFFIX + " files, more than the limit of " + limits.maxFiles
              + " files: reading the first " + room + " by name, leaving out " + (found - room)
              + " (--max-files raises the limit)";
        }
        return null;
      } catch (AccessDeniedException e) {
        return "cannot list this directory: permission denied";
      } catch (IOException e) {
        return "cannot list this directory: " + describe(e);
      }
    }
    if (Files.isRegularFile(path)) {
      if (room == 0) {
        return "left out: " + limits.maxFiles + " files were read already (--max-files raises the limit)";
      }
      files.add(path);
      return null;
    }
    return Files.exists(path) ? "not a regular file or directory" : "no such file or directory";
  }

  /**
   * Adds the first {@code room} {@code .binpb} files of {@code directory} by name to {@code files}
   * and returns how many there are in all; memory stays bounded by {@code room}.
   */
  private static int listDirectory(Path directory, int room, List<Path> files) throws IOException {
    TreeSet<Path> first = new TreeSet<>();
    int found = 0;
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory, "*" + SUFFIX)) {
      for (Path entry : entries) {
        if (entry.getFileName().toString().startsWith(".") || !Files.isRegularFile(entry)) {
          continue;
        }
        found++;
        if (first.size() < room) {
          first.add(entry);
        } else if (entry.compareTo(first.last()) < 0) {
          first.pollLast();
          first.add(entry);
        }
      }
    }
    files.addAll(first);
    return found;
  }

  /** Decodes each file into {@code model}; problems and progress go to {@code err}. */
  static Outcome read(List<Path> files, ReportModel model, ReportLimits limits, PrintStream err) {
    int read = 0;
    int skipped = 0;
    boolean progress = files.size() >= MANY_FILES;
    int step = Math.max(1, files.size() / 10);
    for (int i = 0; i < files.size(); i++) {
      Path file = files.get(i);
      String problem = readInto(file, model, limits);
      if (problem == null) {
        read++;
      } else {
        err.println(PREFIX + "skipping " + printable(file.toString()) + ": " + printable(problem));
        skipped++;
      }
      if (progress && ((i + 1) % step == 0 || i + 1 == files.size())) {
        err.println(PREFIX + "read " + (i + 1) + " of " + files.size() + " files, " + model.samples() + " samples");
      }
    }
    return new Outcome(read, skipped);
  }

  /** Reads one file into {@code model}; returns what was wrong, or null. */
  private static String readInto(Path file, ReportModel model, ReportLimits limits) {
    byte[] bytes;
    try {
      bytes = readAtMost(file, limits.maxFileBytes);
      if (bytes == null) {
        return "larger than the limit of " + ReportLimits.megabytes(limits.maxFileBytes) + " per file"
            + " (--max-file-mb raises it)";
      }
    } catch (AccessDeniedException e) {
      return "cannot read it: permission denied";
    } catch (NoSuchFileException e) {
      return "cannot read it: it is gone";
    } catch (IOException e) {
      return "cannot read it: " + describe(e);
    }
    ProfilesRequest request;
    try {
      request = RequestDecoder.decode(bytes);
    } catch (MalformedProfileException e) {
      return InputKind.explain(bytes, e.getMessage());
    } catch (OutOfMemoryError e) {
      return "out of memory decoding it; give java more heap (-Xmx) or leave the file out";
    } catch (RuntimeException | StackOverflowError e) {
      return "cannot decode it (" + e + "); this is a bug in the report, please report it";
    }
    if (model.trie.size() + request.dictionary.frames > limits.maxCallTreeNodes) {
      return "its stacks could take the report's call tree past the limit of " + limits.maxCallTreeNodes
          + " nodes (distinct call paths); report fewer files at a time";
    }
    try {
      model.add(request);
      return null;
    } catch (RuntimeException e) {
      return "cannot aggregate it (" + e + "); this is a bug in the report, please report it";
    }
  }

  /** The whole file, or null if it holds more than {@code max} bytes (it is not read past that). */
  private static byte[] readAtMost(Path file, long max) throws IOException {
    if (Files.size(file) > max) {
      return null;
    }
    try (InputStream in = Files.newInputStream(file)) {
      byte[] bytes = in.readNBytes((int) max); // the file may have grown since
      return in.read() < 0 ? bytes : null;
    }
  }

  private static String describe(IOException e) {
    String message = e.getMessage();
    return message == null ? e.getClass().getSimpleName() : e.getClass().getSimpleName() + " " + message;
  }

  /** One line, whatever a file name or message holds: control characters become '?'. */
  static String printable(String text) {
    StringBuilder out = null;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isISOControl(c)) {
        if (out == null) {
          out = new StringBuilder(text.substring(0, i));
        }
        out.append('?');
      } else if (out != null) {
        out.append(c);
      }
    }
    return out == null ? text : out.toString();
  }
}
