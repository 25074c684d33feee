package io.spanflight.smoke.outside;

import com.google.protobuf.InvalidProtocolBufferException;
import io.opentelemetry.proto.processcontext.v1development.ProcessContext;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * The OTEP-4719 reading protocol, as a profiler outside the process follows it, written from the
 * OTEP and not from Spanflight's code: find the one mapping with one of the protocol's names in
 * {@code /proc/PID/maps}; check the 32-byte header's signature ({@code OTEL_CTX}) and version (2);
 * read the publication time (0: an update is in progress, read again), the payload's size and
 * address, the payload, then the publication time again (changed: an update overtook the read,
 * read again); decode the payload with the released {@code process_context.proto}'s generated
 * class (opentelemetry-proto 1.11.0).
 */
public final class ProcessContextReader {
  /** The names the mapping shows under: memfd (named or not) or a named anonymous mapping. */
  public static final Set<String> MAPPING_NAMES = Set.of(
      "/memfd:OTEL_CTX", "/memfd:OTEL_CTX (deleted)", "[anon_shmem:OTEL_CTX]", "[anon:OTEL_CTX]");
  static final int HEADER_SIZE = 32;
  static final int VERSION = 2;
  /** The largest payload a reader accepts (the eBPF profiler's bound). */
  static final int MAX_PAYLOAD = 65_536;

  /** Reads {@code length} bytes of the other process's memory at {@code address}. */
  public interface Memory {
    byte[] read(long address, int length) throws IOException;
  }

  /** One consistent read: where, when it was published, how many attempts it took, what it says. */
  public record Snapshot(String mappingName, long publishedAtNs, int payloadSize, int attempts,
      ProcessContext context) {}

  private ProcessContextReader() {}

  /** Reads process {@code pid}'s context through {@code /proc/PID/maps} and {@code /proc/PID/mem}. */
  public static Snapshot read(long pid, int maxAttempts) throws IOException {
    String mapping = mappingLine(Files.readAllLines(Path.of("/proc/" + pid + "/maps")));
    long address = Long.parseUnsignedLong(mapping.substring(0, mapping.indexOf('-')), 16);
    try (ProcMemory memory = ProcMemory.open(pid)) {
      return read(memory, address, nameOf(mapping), maxAttempts);
    }
  }

  /** The one maps line whose name is one of {@link #MAPPING_NAMES}, readable and writable. */
  static String mappingLine(List<String> maps) throws IOException {
    List<String> found = maps.stream().filter(line -> MAPPING_NAMES.contains(nameOf(line))).toList();
    if (found.size() != 1) {
      throw new IOException("expected one OTEL_CTX mapping, found " + found);
    }
    String line = found.get(0);
    if (!line.split("\\s+")[1].startsWith("rw")) {
      throw new IOException("the OTEL_CTX mapping is not readable and writable: " + line);
    }
    return line;
  }

  /** The pathname column of a maps line (the sixth, which may hold spaces), or "". */
  static String nameOf(String mapsLine) {
    String[] fields = mapsLine.trim().split("\\s+", 6);
    return fields.length == 6 ? fields[5].trim() : "";
  }

  /** The protocol over {@code memory}, the header at {@code address}; retries up to {@code maxAttempts}. */
  static Snapshot read(Memory memory, long address, String mappingName, int maxAttempts) throws IOException {
    String lastRetry = "no attempt";
    for (int attempt = 1; attempt <= maxAttempts; attempt++) {
      ByteBuffer header = ByteBuffer.wrap(memory.read(address, HEADER_SIZE)).order(ByteOrder.LITTLE_ENDIAN);
      String signature = new String(header.array(), 0, 8, StandardCharsets.ISO_8859_1);
      int version = header.getInt(8);
      if (!signature.equals("OTEL_CTX") || version != VERSION) {
        throw new IOException("not a process context: signature '" + signature + "', version " + version);
      }
      long publishedAt = header.getLong(16);
      if (publishedAt == 0) {
        lastRetry = "an update was in progress (published_at_ns 0)";
        continue;
      }
      int size = header.getInt(12);
      long payloadAddress = header.getLong(24);
      if (size <= 0 || size > MAX_PAYLOAD) {
        throw new IOException("payload size " + Integer.toUnsignedString(size) + " out of (0, " + MAX_PAYLOAD + "]");
      }
      byte[] payload = memory.read(payloadAddress, size);
      long publishedAfter = ByteBuffer.wrap(memory.read(address + 16, 8)).order(ByteOrder.LITTLE_ENDIAN).getLong();
      if (publishedAfter != publishedAt) {
        lastRetry = "an update overtook the read (published_at_ns " + publishedAt + " then " + publishedAfter + ")";
        continue;
      }
      try {
        return new Snapshot(mappingName, publishedAt, size, attempt, ProcessContext.parseFrom(payload));
      } catch (InvalidProtocolBufferException e) {
        throw new IOException("payload of " + size + " bytes at 0x" + Long.toHexString(payloadAddress)
            + " is not a ProcessContext: " + e.getMessage(), e);
      }
    }
    throw new IOException("no consistent read in " + maxAttempts + " attempts: " + lastRetry);
  }
}
