package io.snowid.testkit;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The forwarder's hold: nothing passes until the release, then everything held does, in order. */
class TcpCutTest {
  private ServerSocket echo;
  private TcpCut link;

  @BeforeEach
  void echoServer() throws IOException {
    echo = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread t =
        new Thread(
            () -> {
              try (Socket s = echo.accept()) {
                s.getInputStream().transferTo(s.getOutputStream());
              } catch (IOException e) {
                // closed
              }
            });
    t.setDaemon(true);
    t.start();
    link = new TcpCut(echo.getLocalPort());
  }

  @AfterEach
  void close() throws IOException {
    link.close();
    echo.close();
  }

  @Test
  void hold_deliversNothingUntilTheRelease_thenAllInOrder() throws IOException {
    try (Socket s = connect()) {
      link.hold();
      assertHeldUntilTheRelease(s, "held");
    }
  }

  @Test
  void hold_coversConnectionsOpenedWhileHeld() throws IOException {
    link.hold();
    try (Socket s = connect()) {
      assertHeldUntilTheRelease(s, "late");
    }
  }

  private Socket connect() throws IOException {
    return new Socket(InetAddress.getLoopbackAddress(), link.port());
  }

  /** Sends {@code text} while held: no echo within 300 ms, then all of it once released. */
  private void assertHeldUntilTheRelease(Socket s, String text) throws IOException {
    s.setSoTimeout(300);
    s.getOutputStream().write(text.getBytes(US_ASCII));
    assertThat(readOrTimeout(s.getInputStream(), text.length())).as("echoed while held").isNull();

    link.release();
    s.setSoTimeout(60_000);
    assertThat(readOrTimeout(s.getInputStream(), text.length())).isEqualTo(text);
  }

  @Test
  void cut_whileHeld_deliversNothingAndCloses() throws IOException {
    try (Socket s = connect()) {
      s.setSoTimeout(60_000);
      link.hold();
      s.getOutputStream().write("gone".getBytes(US_ASCII));
      link.cut();
      assertThat(endsWithoutData(s.getInputStream()))
          .as("the connection ends, nothing echoed")
          .isTrue();
    }
  }

  /** Whether the stream ends (closed, or reset: closed with data unread) before any byte. */
  private static boolean endsWithoutData(InputStream in) throws IOException {
    try {
      return in.read() < 0;
    } catch (SocketException e) {
      return e.getMessage().contains("reset");
    }
  }

  /** The next {@code n} bytes as text, or null if none came before the socket's timeout. */
  private static String readOrTimeout(InputStream in, int n) throws IOException {
    byte[] b = new byte[n];
    int read = 0;
    try {
      while (read < n) {
        int r = in.read(b, read, n - read);
        if (r < 0) {
          break;
        }
        read += r;
      }
    } catch (SocketTimeoutException e) {
      if (read == 0) {
        return null;
      }
      throw e;
    }
    return new String(b, 0, read, US_ASCII);
  }
}
