package io.spanflight.internal.report;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Writes the report as one self-contained HTML file: the page ({@code report.html}) with its
 * stylesheet ({@code report.css}) and script ({@code report.js}) inlined, and the model as JSON in
 * a {@code <script type="application/json">} element. Nothing is loaded from the network. The file
 * is written under a temporary name and then moved into place.
 *
 * <p>Not API: internal to Spanflight.
 */
final class HtmlReport {
  private static final String DATA_MARKER = "<!--DATA-->";
  private static final String CSS_MARKER = "/*CSS*/";
  private static final String JS_MARKER = "/*JS*/";

  private HtmlReport() {}

  static void write(ReportModel model, Path file) throws IOException {
    String page = resource("report.html")
        .replace(CSS_MARKER, resource("report.css"))
        .replace(JS_MARKER, resource("report.js"));
    int marker = page.indexOf(DATA_MARKER);
    Path parent = file.toAbsolutePath().getParent();
    Files.createDirectories(parent);
    // not Files.createTempFile: its owner-only permissions would stay on the report
    Path temporary = parent.resolve("." + file.getFileName() + "." + System.nanoTime() + ".tmp");
    try {
      try (Writer out = new BufferedWriter(new OutputStreamWriter(
          Files.newOutputStream(temporary, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
          StandardCharsets.UTF_8), 1 << 16)) {
        out.write(page, 0, marker);
        out.write("<script type=\"application/json\" id=\"spanflight-data\">");
        ReportJson.write(model, out);
        out.write("</script>");
        out.write(page, marker + DATA_MARKER.length(), page.length() - marker - DATA_MARKER.length());
      }
      Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(temporary);
    }
  }

  private static String resource(String name) {
    try (InputStream in = HtmlReport.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("report resource " + name + " missing from the jar");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
