package io.spanflight.smoke;

import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads what the Collector's file exporter wrote with {@code format: proto}: a sequence of
 * messages, each a 4-byte big-endian length and a {@code ProfilesData}, whose fields are numbered
 * as those of {@code ExportProfilesServiceRequest} (resource profiles 1, dictionary 2).
 */
final class FileExporterOutput {
  private static final int MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

  private FileExporterOutput() {}

  static List<ExportProfilesServiceRequest> read(Path file) throws IOException {
    List<ExportProfilesServiceRequest> messages = new ArrayList<>();
    try (InputStream in = Files.newInputStream(file); DataInputStream data = new DataInputStream(in)) {
      while (true) {
        int length;
        try {
          length = data.readInt();
        } catch (EOFException end) {
          return messages;
        }
        if (length < 0 || length > MAX_MESSAGE_BYTES) {
          throw new IOException(file + ": message " + messages.size() + " claims " + length + " bytes");
        }
        messages.add(ExportProfilesServiceRequest.parseFrom(data.readNBytes(length)));
      }
    }
  }
}
