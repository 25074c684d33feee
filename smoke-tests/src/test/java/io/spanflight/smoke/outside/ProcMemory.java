package io.spanflight.smoke.outside;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Another process's memory through {@code /proc/PID/mem} (needs ptrace access to it: the same user
 * without Yama's restrictions, or root). A read of an unmapped address fails with an IOException.
 */
final class ProcMemory implements ProcessContextReader.Memory, AutoCloseable {
  private final FileChannel channel;

  private ProcMemory(FileChannel channel) {
    this.channel = channel;
  }

  static ProcMemory open(long pid) throws IOException {
    return new ProcMemory(FileChannel.open(Path.of("/proc/" + pid + "/mem"), StandardOpenOption.READ));
  }

  @Override
  public byte[] read(long address, int length) throws IOException {
    ByteBuffer buffer = ByteBuffer.allocate(length);
    while (buffer.hasRemaining()) {
      // addresses above 2^63 are kernel space, never a mapping of the process
      int n = channel.read(buffer, address + buffer.position());
      if (n <= 0) {
        throw new IOException("cannot read " + length + " bytes at 0x" + Long.toHexString(address));
      }
    }
    return buffer.array();
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
