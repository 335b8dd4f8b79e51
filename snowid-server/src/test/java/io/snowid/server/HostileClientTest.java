package io.snowid.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Clients that try to hold the service with little effort, against the default configuration:
 * batches pipelined by clients that then leave, and a client that sends its headers one line at a
 * time. Each test asserts the state the server reaches (nothing waiting in the generator, the
 * connection closed), with a generous bound only so that a server that never reaches it fails
 * instead of hanging.
 */
class HostileClientTest {
  /** Keep-alive connections left idle are closed after this on stop. */
  private static final Duration STOP = Duration.ofMillis(300);

  private static final String BATCH = "GET /ids?count=100000 HTTP/1.1\r\nHost: x\r\n\r\n";

  /** Shorter than the default 10 s, so that the slow client is cut off sooner. */
  private static final Duration HEADER_TIMEOUT = Duration.ofSeconds(4);

  private SnowIdServer server;
  private Http http;

  @BeforeEach
  void start() {
    server =
        SnowIdServer.start(
            ServerConfig.defaults()
                .withPort(0)
                .withStopTimeout(STOP)
                .withHeaderTimeout(HEADER_TIMEOUT)
                .withNode("static:worker=21,datacenter=3"));
    http = new Http(server);
  }

  @AfterEach
  void stop() {
    server.stop();
  }

  /**
   * 40 clients each pipeline 200 of the largest batches (about 17 KB, 4.9 s of the node's whole
   * capacity each) and close their connection at once. A request whose connection is gone is not
   * issued, and what is reserved ahead is capped: the server settles with nothing waiting, rather
   * than issue every batch it read, minutes of the node's capacity, with pool threads parked in the
   * generator and every other request waiting behind them.
   */
  @Test
  void pipelinedBatches_clientsLeave_nothingIsLeftWaitingInTheGenerator() {
    for (int c = 0; c < 40; c++) {
      Attack.pipelineAndLeave(server, BATCH, 200);
    }

    await()
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(100))
        .during(Duration.ofMillis(500))
        .until(
            () ->
                Attack.threadsInReserve() == 0
                    && Attack.metric(http, "snowid_http_reserved_ahead") == 0.0);

    HttpResponse<String> id = http.get("id");
    assertThat(id.statusCode()).isEqualTo(200);
    assertThat(id.body()).matches("[0-9]+\n");
    double issued = Attack.metric(http, "snowid_ids_issued_total");
    assertThat(issued).as("IDs issued of the 800 million asked for").isLessThan(80_000_000);
  }

  /**
   * A client sends a request line and then one header line a second, never the blank line that ends
   * the headers; each line is well within the idle timeout. The server closes the connection once
   * the header timeout (4 s here) has passed since the first line, without answering, and serves
   * other clients meanwhile.
   */
  @Test
  void slowloris_isDisconnectedAfterTheHeaderTimeout_whileAnotherClientIsServed() throws Exception {
    try (Socket slow = Attack.connect(server)) {
      slow.setSoTimeout(1000);
      OutputStream out = slow.getOutputStream();
      out.write("GET /id HTTP/1.1\r\nHost: x\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      long deadline = System.nanoTime() + Duration.ofSeconds(40).toNanos();
      boolean closed = false;
      int lines = 0;
      while (!closed && System.nanoTime() < deadline) {
        closed = Attack.closedByServer(slow); // waits up to the socket timeout
        if (!closed) {
          try {
            out.write(("X-Line-" + lines++ + ": 1\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
          } catch (java.io.IOException e) {
            closed = true; // reset by the server
          }
        }
        if (lines == 2) {
          assertThat(http.get("id").statusCode()).as("another client meanwhile").isEqualTo(200);
        }
      }

      assertThat(closed).as("closed by the server, after %d header lines", lines).isTrue();
      assertThat(lines).as("header lines sent before the close").isGreaterThanOrEqualTo(2);
    }
  }
}
