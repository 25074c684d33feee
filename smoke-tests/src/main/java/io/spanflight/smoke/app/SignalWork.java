package io.spanflight.smoke.app;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;

/**
 * Request work that produces one JFR signal each (allocation, lock contention, monitor wait,
 * park, socket read, file read, a traced method), in methods whose names say which, so the smoke
 * tests can find the samples and check the span they are linked to.
 */
public final class SignalWork {
  private static volatile Object sink;
  private static final Path FILE = createFile();
  private static final int SLOW_PEER_PORT = startSlowPeer();

  private SignalWork() {}

  /** Allocates short-lived arrays for about {@code millis} ms. */
  public static long allocateInsideRequest(long millis) {
    long deadline = System.nanoTime() + millis * 1_000_000L;
    long total = 0;
    do {
      List<byte[]> batch = new ArrayList<>();
      for (int i = 0; i < 64; i++) {
        batch.add(new byte[4096]);
      }
      sink = batch;
      total += batch.size();
    } while (System.nanoTime() - deadline < 0);
    return total;
  }

  /** Blocks about {@code millis} ms entering a monitor that another thread holds. */
  public static long contendInsideRequest(long millis) {
    Object monitor = new Object();
    CountDownLatch held = new CountDownLatch(1);
    Thread holder =
        new Thread(
            () -> {
              synchronized (monitor) {
                held.countDown();
                LockSupport.parkNanos(millis * 1_000_000L);
              }
            });
    holder.start();
    awaitQuietly(held);
    synchronized (monitor) {
      return millis;
    }
  }

  /** Waits about {@code millis} ms on a monitor. */
  public static long waitInsideRequest(long millis) {
    Object monitor = new Object();
    synchronized (monitor) {
      try {
        monitor.wait(millis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    return millis;
  }

  /** Parks about {@code millis} ms. */
  public static long parkInsideRequest(long millis) {
    LockSupport.parkNanos(millis * 1_000_000L);
    return millis;
  }

  /** Reads from a loopback peer that answers after about {@code millis} ms. */
  public static long socketReadInsideRequest(long millis) {
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), SLOW_PEER_PORT)) {
      OutputStream out = socket.getOutputStream();
      out.write((int) Math.min(millis, 250));
      out.flush();
      return socket.getInputStream().read();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Reads a 1 MB file {@code millis / 10 + 1} times. */
  public static long fileReadInsideRequest(long millis) {
    long total = 0;
    try {
      for (long i = 0; i <= millis / 10; i++) {
        try (InputStream in = Files.newInputStream(FILE)) {
          total += in.readAllBytes().length;
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return total;
  }

  /** A method worth tracing with JDK 25's MethodTrace: burns about {@code millis} ms of CPU. */
  public static long tracedInsideRequest(long millis) {
    return BurnWork.digestInsideRequest(millis);
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static Path createFile() {
    try {
      Path file = Files.createTempFile("spanflight-signal", ".bin");
      file.toFile().deleteOnExit();
      Files.write(file, new byte[1 << 20]);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A loopback peer: reads one byte n, waits n ms, answers one byte. */
  private static int startSlowPeer() {
    try {
      ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
      Thread acceptor =
          new Thread(
              () -> {
                while (!server.isClosed()) {
                  try (Socket peer = server.accept()) {
                    int millis = peer.getInputStream().read();
                    LockSupport.parkNanos(Math.max(0, millis) * 1_000_000L);
                    peer.getOutputStream().write(1);
                  } catch (IOException e) {
                    // the client went away; serve the next one
                  }
                }
              },
              "slow-peer");
      acceptor.setDaemon(true);
      acceptor.start();
      return server.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
