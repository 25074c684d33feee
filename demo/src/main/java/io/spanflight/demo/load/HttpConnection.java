package io.spanflight.demo.load;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * One keep-alive HTTP/1.1 connection to a server on the loopback interface, for GET requests
 * whose answers carry a {@code Content-Length} or come chunked. Deliberately minimal, so that the load generator
 * costs little CPU next to the service it measures; reconnects after any failure.
 */
final class HttpConnection implements AutoCloseable {
  private static final int TIMEOUT_MILLIS = 30_000;

  private final int port;
  private final byte[] line = new byte[8192];
  private Socket socket;
  private InputStream in;
  private OutputStream out;

  HttpConnection(int port) {
    this.port = port;
  }

  /** Sends {@code GET path} and reads the whole answer; returns its status code. */
  int get(String path) throws IOException {
    if (socket == null) {
      connect();
    }
    try {
      out.write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      return readResponse();
    } catch (IOException e) {
      close();
      throw e;
    }
  }

  private void connect() throws IOException {
    Socket s = new Socket();
    s.setTcpNoDelay(true);
    s.setSoTimeout(TIMEOUT_MILLIS);
    s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), TIMEOUT_MILLIS);
    socket = s;
    in = new BufferedInputStream(s.getInputStream(), 16_384);
    out = s.getOutputStream();
  }

  private int readResponse() throws IOException {
    String status = readLine();
    if (!status.startsWith("HTTP/1.") || status.length() < 12) {
      throw new IOException("not an HTTP status line: " + status);
    }
    int code = Integer.parseInt(status.substring(9, 12));
    long length = -1;
    boolean closeAfter = false;
    boolean chunked = false;
    for (String header = readLine(); !header.isEmpty(); header = readLine()) {
      String lower = header.toLowerCase(Locale.ROOT);
      if (lower.startsWith("content-length:")) {
        length = Long.parseLong(lower.substring(15).trim());
      } else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
        chunked = true;
      } else if (lower.startsWith("connection:") && lower.contains("close")) {
        closeAfter = true;
      }
    }
    if (chunked) {
      skipChunks();
    } else if (length >= 0) {
      skip(length);
    } else {
      throw new IOException("answer without Content-Length (status " + code + ")");
    }
    if (closeAfter) {
      close();
    }
    return code;
  }

  /** A chunked body: hexadecimal size lines, each followed by that many bytes, until size 0. */
  private void skipChunks() throws IOException {
    while (true) {
      String sizeLine = readLine();
      int extension = sizeLine.indexOf(';');
      long size;
      try {
        size = Long.parseLong((extension < 0 ? sizeLine : sizeLine.substring(0, extension)).trim(), 16);
      } catch (NumberFormatException e) {
        throw new IOException("not a chunk size: " + sizeLine);
      }
      if (size == 0) {
        for (String trailer = readLine(); !trailer.isEmpty(); trailer = readLine()) {
          // trailers are not used
        }
        return;
      }
      skip(size);
      readLine(); // the CRLF after the chunk
    }
  }

  private void skip(long length) throws IOException {
    for (long left = length; left > 0; ) {
      long skipped = in.skip(left);
      if (skipped <= 0) {
        if (in.read() < 0) {
          throw new EOFException("connection closed inside the body");
        }
        skipped = 1;
      }
      left -= skipped;
    }
  }

  private String readLine() throws IOException {
    int n = 0;
    for (int b = in.read(); b != '\n'; b = in.read()) {
      if (b < 0) {
        throw new EOFException("connection closed by the server");
      }
      if (b != '\r' && n < line.length) {
        line[n++] = (byte) b;
      }
    }
    return new String(line, 0, n, StandardCharsets.US_ASCII);
  }

  @Override
  public void close() {
    if (socket != null) {
      try {
        socket.close();
      } catch (IOException e) {
        // already broken: nothing more to release
      }
      socket = null;
    }
  }
}
