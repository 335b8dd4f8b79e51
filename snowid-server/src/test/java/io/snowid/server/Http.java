package io.snowid.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** A black-box client: java.net.http for well-formed requests, a raw socket for broken ones. */
final class Http {
  private static final HttpClient CLIENT =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(10))
          .build();

  private final URI base;

  Http(SnowIdServer server) {
    this.base = server.uri();
  }

  HttpResponse<String> get(String pathAndQuery, String... headers) {
    return send("GET", pathAndQuery, headers);
  }

  HttpResponse<String> send(String method, String pathAndQuery, String... headers) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(base.resolve(pathAndQuery))
            .timeout(Duration.ofSeconds(30))
            .method(method, HttpRequest.BodyPublishers.noBody());
    if (headers.length > 0) {
      b.headers(headers);
    }
    try {
      return CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Sends raw bytes and returns everything the server answers until it closes or goes quiet. */
  String raw(String request) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(base.getHost(), base.getPort()), 10_000);
      s.setSoTimeout(10_000);
      OutputStream out = s.getOutputStream();
      out.write(request.getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      InputStream in = s.getInputStream();
      ByteArrayOutputStream got = new ByteArrayOutputStream();
      byte[] buf = new byte[8192];
      try {
        for (int n; (n = in.read(buf)) > 0; ) {
          got.write(buf, 0, n);
        }
      } catch (IOException e) {
        // reset or timeout after the answer: keep what arrived
      }
      return got.toString(StandardCharsets.ISO_8859_1);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
