package io.spanflight.smoke.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Ports on the loopback interface for servers a test starts later (a collector, say). */
public final class LoopbackPorts {
  private LoopbackPorts() {}

  /** A port free on 127.0.0.1 a moment ago (another process could take it before it is used). */
  public static int free() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free loopback port", e);
    }
  }
}
