package io.snowid.torture;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The harness's own connection to its Redis: commands of binary-safe arguments, replies as {@code
 * byte[]} (bulk and simple strings), {@code Long} (integers), {@code List} (arrays) or null; an
 * error reply throws.
 */
final class RedisClient implements AutoCloseable {
  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;

  RedisClient(InetSocketAddress address) throws IOException {
    socket = new Socket();
    socket.connect(address, 5_000);
    socket.setSoTimeout(30_000);
    in = new BufferedInputStream(socket.getInputStream());
    out = socket.getOutputStream();
  }

  /** Sends one command (each argument a {@code String} or {@code byte[]}) and reads its reply. */
  Object call(Object... args) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    b.writeBytes(("*" + args.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
    for (Object a : args) {
      byte[] bytes = a instanceof byte[] raw ? raw : a.toString().getBytes(StandardCharsets.UTF_8);
      b.writeBytes(("$" + bytes.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
      b.writeBytes(bytes);
      b.writeBytes(new byte[] {'\r', '\n'});
    }
    out.write(b.toByteArray());
    out.flush();
    return reply();
  }

  private Object reply() throws IOException {
    int type = in.read();
    String line = line();
    switch (type) {
      case '+':
        return line.getBytes(StandardCharsets.UTF_8);
      case '-':
        throw new IOException("redis: " + line);
      case ':':
        return Long.parseLong(line);
      case '$':
        int len = Integer.parseInt(line);
        if (len < 0) {
          return null;
        }
        byte[] data = in.readNBytes(len + 2);
        if (data.length != len + 2) {
          throw new IOException("redis: reply cut short");
        }
        return java.util.Arrays.copyOf(data, len);
      case '*':
        int n = Integer.parseInt(line);
        if (n < 0) {
          return null;
        }
        List<Object> items = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
          items.add(reply());
        }
        return items;
      default:
        throw new IOException("redis: unexpected reply type " + type);
    }
  }

  private String line() throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    for (int c; (c = in.read()) != '\r'; ) {
      if (c < 0) {
        throw new IOException("redis: connection closed");
      }
      b.write(c);
    }
    in.read(); // \n
    return b.toString(StandardCharsets.UTF_8);
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
